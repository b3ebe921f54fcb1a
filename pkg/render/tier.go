package render

import (
	"fmt"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Placement is where one memory renders, by render's own selection.
type Placement struct {
	Rendered bool   `json:"rendered"`
	Tier     string `json:"tier,omitempty"`    // pinned, project or global
	Section  string `json:"section,omitempty"` // the heading it renders under, without "## "
	Reason   string `json:"reason,omitempty"`  // why it does not render
	// Scope is the project whose sessions alone a pinned project memory
	// renders in; "" for a global one (every session).
	Scope string `json:"scope,omitempty"`
}

// String is the placement as a person reads it: "renders in Project:
// Billing", or "will not render: global, importance 5 < 7 and no durable tag".
func (p Placement) String() string {
	switch {
	case p.Rendered && p.Tier == tierPinned && p.Scope != "":
		return "renders in " + p.Section + " (pinned, in " + p.Scope + "'s sessions only)"
	case p.Rendered && p.Tier == tierPinned:
		return "renders in " + p.Section + " (pinned)"
	case p.Rendered:
		return "renders in " + p.Section
	}
	return "will not render: " + p.Reason
}

// Place renders mems with opts and says where the memory id lands: the
// heading it renders under, or the reason render drops it. Callers pass
// the options of the session the memory belongs to (its project's, or
// none for a global memory).
func Place(mems []*vault.Memory, id string, opts Options) (Placement, error) {
	res, err := Render(mems, opts)
	if err != nil {
		return Placement{}, err
	}
	for _, it := range res.Items {
		if it.ID == id {
			p := Placement{Rendered: true, Tier: it.Tier, Section: it.Section}
			if it.Tier == tierPinned && opts.Project != nil {
				for _, m := range mems {
					if m.ID == id && m.Meta().Project != "" {
						p.Scope = opts.Project.Name
					}
				}
			}
			return p, nil
		}
	}
	for _, d := range res.Dropped {
		if d.ID != id {
			continue
		}
		reason := d.Reason
		if reason == reasonNotGlobal {
			reason = notGlobal(mems, id, opts)
		}
		return Placement{Reason: reason}, nil
	}
	return Placement{Reason: "not in the vault's memories"}, nil
}

// notGlobal spells out reasonNotGlobal with the memory's own numbers.
func notGlobal(mems []*vault.Memory, id string, opts Options) string {
	for _, m := range mems {
		if m.ID == id {
			return fmt.Sprintf("global, importance %d < %d and no durable tag", m.Meta().ImportanceOrDefault(), opts.MinGlobalImportance)
		}
	}
	return reasonNotGlobal
}

// Section is the pinned section meta renders under, given the configured
// sections (render.sections): its section if that names one, else the
// section of its type. A writer that keeps a pinned claim's place (a
// correction) stores it.
func Section(meta *frontmatter.Meta, sections []string) string {
	names := sectionNames(sections)
	return names[sectionOf(meta, names)]
}
