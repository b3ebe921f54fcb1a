"""A UD treebank snapshot read in place: what scripts/udimperatives and
scripts/udlanguages share."""

import subprocess
import sys


def treebank(arg, pud=False):
    """The git directory, ref and language of MIRROR or MIRROR@BRANCH (a
    mirror of github.com/UniversalDependencies/UD_<Language>-<Name>);
    exits on a PUD treebank, which is the rules' precision check, unless
    pud (scripts/udlanguages' --romanized: Latin words from a treebank in
    another script, which cannot change a verdict on its sentences)."""
    repo, _, ref = arg.partition("@")
    name = repo.rstrip("/").removesuffix("/repo").split("UD_")[-1]
    if name.endswith("-PUD") and not pud:
        sys.exit(f"{repo}: a PUD treebank is the precision check; leave it out")
    return repo, ref or "HEAD", name.split("-")[0]


def files(repo, ref):
    """The .conllu files of repo's ref that the snapshot holds, as (name,
    text), read with one `git cat-file --batch`."""
    tree = subprocess.run(["git", "-C", repo, "ls-tree", "-r", ref],
                          capture_output=True, text=True, check=True).stdout
    blobs = [(line.split()[2], line.split("\t")[1]) for line in tree.splitlines() if line.endswith(".conllu")]
    batch = subprocess.run(["git", "-C", repo, "cat-file", "--batch"], input="".join(b + "\n" for b, _ in blobs).encode(),
                           capture_output=True, check=True).stdout
    at = 0
    for _, name in blobs:
        head = batch[at:batch.index(b"\n", at)].decode()
        at += len(head) + 1
        if head.endswith("missing"):
            continue
        size = int(head.split()[2])
        yield name, batch[at:at + size].decode("utf-8", "replace")
        at += size + 1
