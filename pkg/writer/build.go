package writer

import (
	"fmt"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// build validates the structure of n (enums, the project id, dates) and
// returns the document to store; Check then applies the content rules.
// Errors are malformed requests, named as f names its inputs.
func build(f Front, n vault.NewMemory, projects []vault.Project, now time.Time) (doc *frontmatter.Document, err error) {
	n.Text = strings.TrimSpace(n.Text)
	if n.Text == "" {
		return nil, fmt.Errorf("%s: empty: say what to remember", f.name("text"))
	}
	if n, err = checkKinds(f, n); err != nil {
		return nil, err
	}
	project, err := resolveProject(f, n.Project, n.Type, n.Cwd, projects)
	if err != nil {
		return nil, err
	}
	if n.ValidAt.IsZero() {
		n.ValidAt = frontmatter.NewTime(now)
	}
	if !n.StaleAfter.IsZero() && !n.StaleAfter.After(n.ValidAt.Time) {
		return nil, fmt.Errorf("%s %s is not after %s %s: give a later date or a positive %s", f.name("stale_after"), n.StaleAfter, f.name("valid_at"), n.ValidAt, f.name("ttl"))
	}
	if !n.InvalidAt.IsZero() && !n.InvalidAt.After(n.ValidAt.Time) {
		return nil, fmt.Errorf("%s %s is not after %s %s: a claim stops being true after it became true", f.name("invalid_at"), n.InvalidAt, f.name("valid_at"), n.ValidAt)
	}
	meta := frontmatter.Meta{
		Type: n.Type, Title: n.Title, Provenance: n.Provenance, Project: project,
		Pinned: n.Pinned, Section: n.Section, Importance: n.Importance, Key: n.Key,
		ValidAt: n.ValidAt, StaleAfter: n.StaleAfter, InvalidAt: n.InvalidAt, Supersedes: n.Supersedes,
		Tags: n.Tags, Aliases: n.Aliases, Session: n.Session, Evidence: strings.TrimSpace(n.Evidence), Source: n.Source, Sources: n.Sources,
	}
	if n.Type == frontmatter.TypeNote {
		meta.Provenance = "" // notes carry no claim of their own
	}
	return &frontmatter.Document{Meta: meta, Body: n.Text + "\n", HasFrontmatter: true}, nil
}

// checkKinds checks n's enumerated values (type, provenance, importance,
// section), filling the defaults of the first two and writing the section
// as lint wants it.
func checkKinds(f Front, n vault.NewMemory) (vault.NewMemory, error) {
	if n.Type == "" {
		n.Type = frontmatter.TypeFact
	}
	if !frontmatter.IsMemoryType(n.Type) && n.Type != frontmatter.TypeNote {
		return n, fmt.Errorf("%s %q: use one of identity, preference, decision, fact, lesson, rule, correction", f.name("type"), n.Type)
	}
	if n.Provenance == "" {
		n.Provenance = frontmatter.Stated
	}
	if frontmatter.ProvenanceRank(n.Provenance) == 0 {
		return n, fmt.Errorf("%s %q: use stated (the user said it), observed (verified with a tool) or inferred (a guess)", f.name("provenance"), n.Provenance)
	}
	if n.Importance != 0 && (n.Importance < 1 || n.Importance > 10) {
		return n, fmt.Errorf("%s %d: use a whole number from 1 to 10", f.name("importance"), n.Importance)
	}
	if n.Section != "" {
		var err error
		if n.Section, err = sectionName(f, n.Section); err != nil {
			return n, err
		}
	}
	return n, nil
}

// sectionName is the pinned section s names, in any case, written as lint
// wants it (section-enum): `--section decisions` is Decisions.
func sectionName(f Front, s string) (string, error) {
	for _, name := range frontmatter.Sections {
		if strings.EqualFold(name, s) {
			return name, nil
		}
	}
	// A value holding a secret or an injection is refused for that, as in
	// any other field, and never quoted back.
	if found := rules.Text(s); len(found) > 0 {
		return "", f.refusal(finding{Finding: found[0], field: "section"})
	}
	return "", fmt.Errorf("%s %q: use one of %s", f.name("section"), s, strings.Join(frontmatter.Sections, ", "))
}

// resolveProject is the project a new memory goes to. auto resolves the
// working directory, but for an identity or a preference: who the user is
// and how they like to work hold everywhere, so those default to global
// (issue 42) and take a project only when one is named.
func resolveProject(f Front, flag, typ, cwd string, projects []vault.Project) (string, error) {
	switch flag {
	case "", "auto":
		if typ == frontmatter.TypeIdentity || typ == frontmatter.TypePreference {
			return "", nil
		}
		if p := vault.ResolveProject(projects, cwd); p != nil {
			return p.ID, nil
		}
		return "", nil
	case "none":
		return "", nil
	}
	if !vault.ProjectIDPattern().MatchString(flag) {
		return "", fmt.Errorf("%s %q: a project id looks like proj_name (proj_ then a-z, 0-9, _ or -); or use auto or none", f.name("project"), flag)
	}
	if vault.FindProject(projects, flag) == nil {
		return "", fmt.Errorf("%s %s names no project note: create one with 'type: project' and 'id: %s', or use auto or none", f.name("project"), flag, flag)
	}
	return flag, nil
}
