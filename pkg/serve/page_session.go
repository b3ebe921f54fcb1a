package serve

import (
	"cmp"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

// dropsPerPage bounds the memories the session view lists at once: at
// 50,000 files most of the vault does not render for one session.
const dropsPerPage = 200

// sessionData is the session view: what render gives the chosen session,
// and why every other memory does not render.
type sessionData struct {
	Projects []vault.Project
	Project  string // the chosen project id
	Dir      string // or the chosen directory
	For      string // the session it resolved to, in words
	Doc      string
	Bytes    int
	Budget   int
	Items    []render.Item
	Warnings []string
	Dropped  int
	// Why counts the memories left out by the first word of their
	// reason (stale, superseded, belongs…); Shown are those of Kind (all
	// when empty) from From on, at most dropsPerPage.
	Why   []kindCount
	Kind  string
	Shown []render.Drop
	From  int
	Of    int    // how many Kind selects
	Next  string // the link to the next page of them, "" when none
}

type kindCount struct {
	Kind  string
	Count int
	Link  string
}

// kind is the first word of a drop's reason: what sort of reason it is.
func kind(reason string) string {
	w, _, _ := strings.Cut(reason, " ")
	return strings.TrimRight(w, ":,")
}

// sessionCache keeps the session view's renders while the vault's files
// and mem.yaml are as they were (vault.Snapshot.Key): a render with every
// drop explained costs a whole-vault load, which the daemon's held scan
// makes a lookup when nothing changed. Not the loaded memories: only the
// results, a few MB at 50,000 files.
type sessionCache struct {
	mu       sync.Mutex
	key      string
	projects []vault.Project
	renders  map[string]cachedRender // by project id ("" for none) and budget
}

type cachedRender struct {
	res  *render.Result
	proj *vault.Project
	at   time.Time
}

// render is the session's render and the vault's projects, from the
// cache while it holds.
func (p *Page) render(t render.Target) (*render.Result, *vault.Project, []vault.Project, error) {
	v, now := p.o.Vault, p.o.Now()
	snap, err := v.Scan()
	if err != nil {
		return nil, nil, nil, err
	}
	key, ok := snap.Key()
	if ok {
		settings, err := json.Marshal(v.Config)
		if err != nil {
			return nil, nil, nil, err
		}
		key += string(settings)
	}
	c := &p.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if !ok || key != c.key {
		c.key, c.projects, c.renders = "", nil, map[string]cachedRender{}
	}
	var mems []*vault.Memory
	if c.projects == nil {
		mems = v.LoadSnapshot(snap, vault.LoadOptions{})
		c.projects = v.Projects(mems)
		if c.projects == nil {
			c.projects = []vault.Project{}
		}
	}
	proj, err := t.Resolve(c.projects)
	if err != nil {
		return nil, nil, c.projects, err
	}
	budget := cmp.Or(t.Budget, v.Config.Render.Budget)
	rk := strconv.Itoa(budget)
	if proj != nil {
		rk = proj.ID + " " + rk
	}
	// Time alone changes a render at its Until (a stale_after comes due).
	if cr, hit := c.renders[rk]; hit && !now.Before(cr.at) && (cr.res.Until.IsZero() || now.Before(cr.res.Until)) {
		return cr.res, cr.proj, c.projects, nil
	}
	if mems == nil {
		mems = v.LoadSnapshot(snap, vault.LoadOptions{})
	}
	res, err := render.Render(mems, render.OptionsFor(v, proj, budget, now))
	if err != nil {
		return nil, nil, c.projects, err
	}
	if ok {
		c.key = key
		c.renders[rk] = cachedRender{res, proj, now}
	}
	return res, proj, c.projects, nil
}

func (p *Page) sessionView(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := sessionData{Project: q.Get("project"), Dir: strings.TrimSpace(q.Get("dir")), Kind: q.Get("why")}
	t := render.Target{Project: d.Project, Cwd: p.o.Vault.Root}
	if d.Project == "" && d.Dir != "" {
		t.Cwd, t.CwdFrom = d.Dir, "the directory"
	}
	res, proj, projects, err := p.render(t)
	d.Projects = projects
	if err != nil {
		p.show(w, r, http.StatusUnprocessableEntity, "session", "Session view", d, err.Error())
		return
	}
	d.For = "no project: pinned and global memories only"
	if proj != nil {
		d.For = proj.ID + " (" + proj.Name + ")"
	}
	d.Doc, d.Bytes, d.Budget = string(res.Doc), len(res.Doc), res.Budget
	d.Items, d.Warnings, d.Dropped = res.Items, res.Warnings, len(res.Dropped)

	// The link to this view with why and from set.
	link := func(why string, from int) string {
		u := url.Values{}
		for k, v := range map[string]string{"project": d.Project, "dir": d.Dir, "why": why} {
			if v != "" {
				u.Set(k, v)
			}
		}
		if from > 0 {
			u.Set("from", strconv.Itoa(from))
		}
		return "/?" + u.Encode() + "#dropped"
	}
	counts := map[string]int{}
	var sel []render.Drop
	for _, x := range res.Dropped {
		k := kind(x.Reason)
		counts[k]++
		if d.Kind == "" || k == d.Kind {
			sel = append(sel, x)
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(counts[b]-counts[a], strings.Compare(a, b))
	}) {
		d.Why = append(d.Why, kindCount{k, counts[k], link(k, 0)})
	}
	d.From, _ = strconv.Atoi(q.Get("from"))
	d.From = min(max(d.From, 0), len(sel))
	d.Of = len(sel)
	d.Shown = sel[d.From:min(d.From+dropsPerPage, len(sel))]
	if end := d.From + dropsPerPage; end < len(sel) {
		d.Next = link(d.Kind, end)
	}
	p.show(w, r, http.StatusOK, "session", "Session view", d, "")
}
