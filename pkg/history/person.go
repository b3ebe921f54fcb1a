package history

import (
	"strings"
	"time"
)

// Person is the human: actor a person's decision is attributed to (mem
// accept and mem review write it into verified, spec §5.2b): the author
// mem commit would use (mem.yaml's author, $GIT_AUTHOR_*, git's user),
// by email, else by name with spaces as dashes. An error says how to set
// one.
func (r *Repo) Person(now time.Time) (string, error) {
	sig, err := r.author(now)
	if err != nil && sig.Email == "" && sig.Name == "" {
		return "", err
	}
	who := strings.TrimSpace(sig.Email)
	if who == "" {
		who = strings.Join(strings.Fields(sig.Name), "-")
	}
	return "human:" + who, nil
}
