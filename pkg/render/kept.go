package render

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// keptView is the name of the kept view a renderer reads and writes.
const keptView = "render"

// renderer renders the views of one command run from one scan of a vault.
// At session boot nothing has usually changed since the last render, and
// loading 50,000 files to find that out costs more than the scan that
// proves it: so a render kept by an earlier run for exactly the same files
// (vault.Snapshot.Key), the same mem.yaml and the same budget is served
// again, with its time line moved to now, while time alone cannot have
// changed it (Result.Until). The vault is loaded only when a render must be
// computed.
type renderer struct {
	v        *vault.Vault
	snap     *vault.Snapshot
	now      time.Time
	kept     kept
	fromKept bool // kept was read for these files, not started afresh
	dirty    bool
	mems     []*vault.Memory
}

type kept struct {
	// Settings is the vault root and its mem.yaml as a render reads them.
	Settings string `json:"settings"`
	// ProjectRels are the project notes, so that a reuse resolves the
	// session's project (live: roots may be symlinks) without the vault.
	ProjectRels []string `json:"project_rels"`
	// Renders are keyed by project id and budget.
	Renders map[string]keptRender `json:"renders"`
}

type keptRender struct {
	Doc      string    `json:"doc"`
	Warnings []string  `json:"warnings,omitempty"`
	At       time.Time `json:"at"` // the Now it was rendered for
	Until    time.Time `json:"until"`
}

// newRenderer scans the vault and reads what an earlier run kept for it.
func newRenderer(v *vault.Vault, now time.Time) (*renderer, error) {
	snap, err := v.Scan()
	if err != nil {
		return nil, err
	}
	settings, err := json.Marshal(struct {
		Root   string
		Config vault.Config
	}{v.Root, v.Config})
	if err != nil {
		return nil, err
	}
	r := &renderer{v: v, snap: snap, now: now}
	if b, ok := v.ReadView(keptView, snap); ok && json.Unmarshal(b, &r.kept) == nil && r.kept.Settings == string(settings) && r.kept.Renders != nil {
		r.fromKept = true
	} else {
		r.kept = kept{Settings: string(settings), Renders: map[string]keptRender{}}
	}
	return r, nil
}

// load loads the vault once, from the scan.
func (r *renderer) load() []*vault.Memory {
	if r.mems == nil {
		r.mems = r.v.LoadSnapshot(r.snap, vault.LoadOptions{})
	}
	return r.mems
}

// projects are the vault's project notes (vault.Projects).
func (r *renderer) projects() []vault.Project {
	if r.mems == nil && r.fromKept {
		return r.v.Projects(r.v.LoadFiles(r.kept.ProjectRels, vault.LoadOptions{}))
	}
	return r.v.Projects(r.load())
}

// Render is Render(mems, OptionsFor(v, project, budget, now)). full asks for
// Items and Dropped (--format json, --explain), which are not kept.
func (r *renderer) Render(project *vault.Project, budget int, full bool) (*Result, error) {
	opts := OptionsFor(r.v, project, budget, r.now)
	key := strconv.Itoa(opts.Budget)
	if project != nil {
		key = project.ID + " " + key
	}
	if k, ok := r.kept.Renders[key]; ok && !full && !r.now.Before(k.At) && (k.Until.IsZero() || r.now.Before(k.Until)) {
		return &Result{Doc: restamp([]byte(k.Doc), r.now), Budget: opts.Budget, project: project, Warnings: k.Warnings, Until: k.Until}, nil
	}
	res, err := Render(r.load(), opts)
	if err != nil {
		return nil, err
	}
	r.kept.Renders[key] = keptRender{Doc: string(res.Doc), Warnings: res.Warnings, At: r.now, Until: res.Until}
	r.dirty = true
	return res, nil
}

// keep saves the renders computed by this run for the next one. A failure
// to save is not an error: the next run renders again.
func (r *renderer) keep() {
	if !r.dirty {
		return
	}
	r.kept.ProjectRels = []string{}
	for _, p := range r.v.Projects(r.load()) {
		r.kept.ProjectRels = append(r.kept.ProjectRels, p.Rel)
	}
	if b, err := json.Marshal(r.kept); err == nil {
		r.v.WriteView(keptView, r.snap, b)
	}
}
