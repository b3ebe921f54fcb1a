package gitrepo

import (
	"os"
	"path/filepath"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// User is git's user.name and user.email as the git program finds them for
// a process whose environment getenv reads (not this process's: a caller
// that hands another HOME commits as that HOME's user, as git would). Each
// value comes from the first that sets it of: the repository's own config,
// the global files ($GIT_CONFIG_GLOBAL, else ~/.gitconfig, then
// $XDG_CONFIG_HOME/git/config, which defaults to ~/.config/git/config)
// and the system file ($GIT_CONFIG_SYSTEM, else /etc/gitconfig; none under
// $GIT_CONFIG_NOSYSTEM). go-git's own scopes read the process's HOME and
// ignore those variables. include.path is not followed.
func (r *Repo) User(getenv func(string) string) (name, email string) {
	if cfg, err := r.g.Config(); err == nil {
		name, email = cfg.User.Name, cfg.User.Email
	}
	for _, p := range userConfigFiles(getenv) {
		if name != "" && email != "" {
			break
		}
		n, e := readUser(p)
		if name == "" {
			name = n
		}
		if email == "" {
			email = e
		}
	}
	return name, email
}

// userConfigFiles are the global and system config files of git's
// lookup, the one that wins first.
func userConfigFiles(getenv func(string) string) []string {
	var files []string
	if g := getenv("GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else if home := getenv("HOME"); home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
		xdg := getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		files = append(files, filepath.Join(xdg, "git", "config"))
	} else if xdg := getenv("XDG_CONFIG_HOME"); xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	switch v := strings.ToLower(getenv("GIT_CONFIG_NOSYSTEM")); v {
	case "", "0", "false", "no", "off":
		if s := getenv("GIT_CONFIG_SYSTEM"); s != "" {
			files = append(files, s)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	return files
}

// readUser is the [user] name and email of one config file; a file that is
// missing or does not parse sets neither.
func readUser(path string) (name, email string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	cfg := format.New()
	if format.NewDecoder(f).Decode(cfg) != nil {
		return "", ""
	}
	u := cfg.Section("user")
	return u.Option("name"), u.Option("email")
}
