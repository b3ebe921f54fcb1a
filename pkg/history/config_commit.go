package history

import (
	"fmt"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// CommitConfig commits mem.yaml alone, as it is on disk, with subject as
// the message: a command that records a setting there (mem backup's
// backup.to) leaves the vault clean, and the setting goes out with what it
// pushes.
func CommitConfig(v *vault.Vault, subject string, now time.Time, env Env) error {
	_, err := CommitPaths(v, []string{vault.ConfigFile}, subject, now, env)
	return err
}

// CommitPaths commits the vault-relative paths alone, as they are on disk
// (a removed one as removed), with subject as the message, and returns
// the new commit: a command that wrote those files (a consolidate batch)
// commits what it did and nothing else — the user's other changes stay
// uncommitted, and what else is staged stays staged. It runs git ('commit
// --only', the paths on stdin so a batch of thousands fits) as mem
// commit's author at now; no hook runs, as none runs for mem commit.
func CommitPaths(v *vault.Vault, paths []string, subject string, now time.Time, env Env) (string, error) {
	r, err := Open(v, env)
	if err != nil {
		return "", err
	}
	who, err := r.author(now)
	if err != nil {
		return "", err
	}
	c, date := r.committer(who), now.Format(time.RFC3339)
	vars := []string{"GIT_AUTHOR_NAME=" + who.Name, "GIT_AUTHOR_EMAIL=" + who.Email, "GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=" + c.Name, "GIT_COMMITTER_EMAIL=" + c.Email, "GIT_COMMITTER_DATE=" + date}
	list := strings.Join(paths, "\x00")
	for _, args := range [][]string{
		{"add", "--all", "--pathspec-from-file=-", "--pathspec-file-nul"},
		{"commit", "--quiet", "--only", "--no-verify", "-m", subject, "--pathspec-from-file=-", "--pathspec-file-nul"},
	} {
		if _, err := r.env.Git().RunWith("", list, vars, append([]string{"--literal-pathspecs", "-C", v.Root}, args...)...); err != nil {
			return "", fmt.Errorf("commit %s: %w", strings.Join(paths[:min(len(paths), 3)], ", "), err)
		}
	}
	head, err := r.env.Git().RunWith("", "", nil, "-C", v.Root, "rev-parse", "HEAD")
	return strings.TrimSpace(head), err
}
