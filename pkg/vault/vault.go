// Package vault finds a vault, loads every memory in it through one loader,
// resolves projects, and writes files through one atomic writer.
package vault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Vault is an opened vault: its root, its configuration, and what the
// command that opened it handed it.
type Vault struct {
	Root   string // absolute, symlinks resolved
	Config Config
	Options
}

// Options are what a vault takes from the process, handed in by the
// command (cmd/mem) rather than read here: the home folder and the waits.
// A zero field is its default.
type Options struct {
	// Home is the user's home folder: ~ in mem.yaml and project roots, and
	// a folder too wide to be a vault or a project root. "" knows no home:
	// ~ stays as written and only the file system's root is refused.
	Home string
	// LockTimeout bounds every wait for one of the vault's locks (Lock);
	// default defaultLockTimeout.
	LockTimeout time.Duration
	// RacyWindow is how close to its scan a file's stamp is too recent to
	// vouch for it (see defaultRacyWindow); negative makes every file
	// settled, for tests of the caches that must not sleep it out.
	RacyWindow time.Duration
	// HeldScan, when set, stands in for Scan: the daemon, which watches
	// the files, hands the commands it answers its last scan while no file
	// changed since (pkg/daemon); scan is the real one.
	HeldScan func(v *Vault, scan func() (*Snapshot, error)) (*Snapshot, error)
	// SecretInName names the secret rule a vault path holds, "" for none
	// (cmd/mem hands in rules.NameRule: the store knows no scanner). A
	// file so named is left out of every Scan and List, so no reader,
	// cache, index or view holds its name; lint names it, redacted, from
	// Snapshot.Held. nil leaves every file in (a clone counting what it
	// checked out).
	SecretInName func(rel string) string
}

// defaultLockTimeout is Options.LockTimeout's default: a holder that is
// stopped (Ctrl-Z) or hung must not block a scheduled job forever.
const defaultLockTimeout = 5 * time.Second

func (o Options) lockTimeout() time.Duration {
	if o.LockTimeout == 0 {
		return defaultLockTimeout
	}
	return o.LockTimeout
}

// Racy is the racy window in effect (RacyWindow or its default).
func (o Options) Racy() time.Duration { return racyWindow(o.RacyWindow) }

// ErrNoVault is returned by Find when no vault can be located.
var ErrNoVault = errors.New("no vault found")

// Find locates the vault root (spec §2): flagDir (--vault), else the
// nearest ancestor of cwd holding mem.yaml, else env ($MEM_VAULT). Standing
// inside a vault means that vault, as with git; $MEM_VAULT is the default
// for hooks that run in code directories.
func Find(flagDir, env, cwd string) (string, error) {
	if flagDir != "" {
		return checkVaultDir(flagDir, "--vault")
	}
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if env != "" {
		return checkVaultDir(env, "$MEM_VAULT")
	}
	return "", fmt.Errorf("%w: pass --vault DIR, run mem inside a directory with %s above it, or set $MEM_VAULT (create a vault with 'mem init DIR')", ErrNoVault, ConfigFile)
}

func checkVaultDir(dir, from string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err != nil {
		return "", fmt.Errorf("%s %s: no %s there (run 'mem init %s' to create a vault)", from, dir, ConfigFile, dir)
	}
	return filepath.Abs(dir)
}

// Open reads the configuration of the vault at root, with default
// Options: no home folder.
func Open(root string) (*Vault, error) { return Options{}.Open(root) }

// Open reads the configuration of the vault at root.
func (o Options) Open(root string) (*Vault, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	if err := o.CheckRoot(abs, "a vault"); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(filepath.Join(abs, ".mem")); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link: mem keeps its index, caches and locks inside the vault and will not write them elsewhere; remove the link (rm %s) and mem rebuilds what it needs",
			filepath.Join(abs, ".mem"), filepath.Join(abs, ".mem"))
	}
	cfg, err := loadConfig(abs)
	if err != nil {
		return nil, err
	}
	fixState(filepath.Join(abs, ".mem"))
	return &Vault{Root: abs, Config: cfg, Options: o}, nil
}

// privateState creates .mem, which holds the index, the caches (the text
// of every memory) and locks, as the owner's alone whatever the umask.
func privateState(dir string) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		fixState(dir)
	}
}

// fixState makes an existing .mem the owner's alone (0700), as a vault
// made before mem did so, or a .mem a command created deeper than its
// root, is fixed on the next open. A vault mem cannot change (read-only
// media, another owner) is left as it is.
func fixState(dir string) {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() && fi.Mode().Perm() != 0o700 {
		_ = os.Chmod(dir, 0o700)
	}
}

// CheckRoot refuses a folder too wide to be what (a vault, a project
// root): the file system's root or the home folder itself. A vault there
// reads, commits and backs up every markdown file on the disk or in the
// home folder (and /etc/passwd through a link); a project root there
// claims every working directory.
func (o Options) CheckRoot(abs, what string) error {
	clean := filepath.Clean(abs)
	home := o.Home
	if home != "" {
		if r, err := filepath.EvalSymlinks(home); err == nil {
			home = r
		}
	}
	switch {
	case clean == filepath.VolumeName(clean)+string(filepath.Separator):
		return fmt.Errorf("%s: %s cannot be the file system's root: make a folder for it (for example ~/mem) and use that", clean, what)
	case home != "" && clean == filepath.Clean(home):
		return fmt.Errorf("%s: %s cannot be your home folder itself: make a folder for it (for example ~/mem) and use that", clean, what)
	}
	return nil
}

// StateDir is the git-ignored machine state directory (.mem).
func (v *Vault) StateDir() string { return filepath.Join(v.Root, ".mem") }

// Rel returns path relative to the vault root, slash-separated.
func (v *Vault) Rel(path string) string {
	if r, err := filepath.Rel(v.Root, path); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}
