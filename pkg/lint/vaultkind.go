package lint

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// kind is what the vault says about itself, read once per run: whether it
// is an OKF bundle, the property types Obsidian was told, and the folder
// of Obsidian's templates (whose placeholders are not values).
type kind struct {
	okf bool
	// dendron: a dendron.yml in the vault or the folder above it (the
	// workspace root) says Dendron writes it: its wikilinks are
	// [[alias|target]], the other way round from Obsidian's.
	dendron bool
	// types maps a property name to the type .obsidian/types.json gives
	// it (text, multitext, number, checkbox, date, datetime, aliases,
	// tags); nil when the vault has none.
	types map[string]string
	// templates is the templates folder, vault-relative, with a trailing
	// slash.
	templates string
}

// readKind reads mem.yaml's okf key, OKF's marker (okf_version in the
// frontmatter of the root index.md, OKF §11) and Obsidian's settings.
func readKind(v *vault.Vault) kind {
	k := kind{templates: "Templates/"}
	if v == nil {
		return k
	}
	k.okf = v.Config.OKF || rootIndexMarked(filepath.Join(v.Root, "index.md"))
	for _, dir := range []string{v.Root, filepath.Dir(v.Root)} {
		if _, err := os.Stat(filepath.Join(dir, "dendron.yml")); err == nil {
			k.dendron = true
		}
	}
	obs := filepath.Join(v.Root, ".obsidian")
	var types struct {
		Types map[string]string `json:"types"`
	}
	if data, err := os.ReadFile(filepath.Join(obs, "types.json")); err == nil && json.Unmarshal(data, &types) == nil {
		k.types = types.Types
	}
	var tmpl struct {
		Folder string `json:"folder"`
	}
	if data, err := os.ReadFile(filepath.Join(obs, "templates.json")); err == nil && json.Unmarshal(data, &tmpl) == nil {
		if f := strings.Trim(path.Clean("/"+filepath.ToSlash(tmpl.Folder)), "/"); f != "" {
			k.templates = f + "/"
		}
	}
	return k
}

// rootIndexMarked reports whether the root index.md declares okf_version.
func rootIndexMarked(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096) // the marker is in the first lines
	n, _ := f.Read(head)
	doc, err := frontmatter.Parse(head[:n])
	if err != nil || !doc.HasFrontmatter {
		return false
	}
	_, ok := doc.Keys["okf_version"]
	return ok
}

// wikiTarget is the note a wikilink names: Obsidian's [[target|alias]],
// or Dendron's [[alias|target]] with its dendron://vault/ prefix (a link
// into a named vault of the workspace) and any #heading removed.
func (k kind) wikiTarget(target, alias string) string {
	if !k.dendron {
		return target
	}
	t := target
	if alias != "" {
		t = strings.TrimSpace(alias)
	}
	if rest, ok := strings.CutPrefix(t, "dendron://"); ok {
		_, t, _ = strings.Cut(rest, "/")
	}
	if i := strings.IndexAny(t, "#^"); i >= 0 {
		t = t[:i]
	}
	return t
}

// inTemplates reports whether rel lies in the templates folder.
func (k kind) inTemplates(rel string) bool { return strings.HasPrefix(rel, k.templates) }

// declared is the property kind (propertyKind's words) .obsidian/types.json
// gives key, and whether it declares one.
func (k kind) declared(key string) (string, bool) {
	t, ok := k.types[key]
	if !ok {
		return "", false
	}
	switch t {
	case "multitext", "aliases", "tags":
		return "list", true
	case "number", "checkbox", "text":
		return t, true
	case "date", "datetime":
		return "date", true
	}
	return "", false // a type of a plugin's: not judged
}

// fits reports whether a value of kind have is read as want by Obsidian:
// a single value is a list of one.
func fits(have, want string) bool {
	return have == want || want == "list" && have != "map"
}
