package history

import (
	"fmt"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// CommitConfig commits mem.yaml alone, as it is on disk, with subject as
// the message: a command that records a setting there (mem backup's
// backup.to) leaves the vault clean, and the setting goes out with what it
// pushes. The rest of the working tree and the index stay as they were.
// It runs git ('commit --only'), which takes one path and leaves what else
// is staged, as mem commit's author at now; no hook runs, as none runs for
// mem commit.
func CommitConfig(v *vault.Vault, subject string, now time.Time, env Env) error {
	r, err := Open(v, env)
	if err != nil {
		return err
	}
	who, err := r.author(now)
	if err != nil {
		return err
	}
	c, date := r.committer(who), now.Format(time.RFC3339)
	vars := []string{"GIT_AUTHOR_NAME=" + who.Name, "GIT_AUTHOR_EMAIL=" + who.Email, "GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=" + c.Name, "GIT_COMMITTER_EMAIL=" + c.Email, "GIT_COMMITTER_DATE=" + date}
	for _, args := range [][]string{
		{"add", "--", vault.ConfigFile},
		{"commit", "--quiet", "--only", "--no-verify", "-m", subject, "--", vault.ConfigFile},
	} {
		if _, err := r.env.Git().RunWith("", "", vars, append([]string{"-C", v.Root}, args...)...); err != nil {
			return fmt.Errorf("commit %s: %w", vault.ConfigFile, err)
		}
	}
	return nil
}
