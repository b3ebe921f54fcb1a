package render

import "github.com/mem-md/mem/pkg/vault"

// Selected is what the views of the vault render, budget aside: every
// memory the global view or a project's view places in a tier. A sync
// compares it before and after a remote's change (spec §9: silencing is
// removal), so a memory lowered below render.min_global_importance, moved
// to a project that does not exist, made stale or beaten on its key counts
// as one the remote removed. out holds why each memory of mems that is not
// selected is left out.
func Selected(mems []*vault.Memory, projects []vault.Project, opts Options) (in map[*vault.Memory]bool, out map[*vault.Memory]string) {
	// One pass with every project as a tier of the session is the union
	// of the views: a memory's tier depends on its own project only.
	chain := make([]*vault.Project, len(projects))
	for i := range projects {
		chain[i] = &projects[i]
	}
	r := &Result{}
	out = map[*vault.Memory]string{}
	cands, _ := r.candidates(mems, opts, chain, sectionNames(opts.Sections), func(m *vault.Memory, reason string) { out[m] = reason })
	in = make(map[*vault.Memory]bool, len(cands))
	for _, c := range cands {
		in[c.m] = true
	}
	return in, out
}
