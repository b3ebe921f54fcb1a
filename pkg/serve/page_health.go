package serve

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/wiring"
)

// chart is an SVG drawn from shapes the template writes out attribute by
// attribute: every label is escaped text, nothing is markup.
type chart struct {
	Title  string
	Width  int
	Height int
	Rects  []rect
	Texts  []text
	Legend []legend
	Empty  string // said instead of the chart when there is nothing to draw
}

type rect struct {
	X, Y, W, H int
	Class      string // a CSS class: the colour of a source, or the budget's outline
	Tip        string // the bar's <title>: what it counts, exactly
}

type text struct {
	X, Y   int
	Anchor string // start, middle or end
	Text   string
}

type legend struct{ Class, Name string }

// maxMonths bounds the months the valid_at chart draws: the latest ones.
const maxMonths = 48

// maxSources are the sources the valid_at chart tells apart; the rest are "other".
const maxSources = 5

func (p *Page) healthData() (*healthData, error) {
	v, now := p.o.Vault, p.o.Now()
	rep, err := wiring.Audit(context.Background(), v, now)
	if err != nil {
		return nil, err
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	d := &healthData{Healthy: rep.Healthy, Months: monthsChart(mems), Coverage: coverageChart(rep.ValidAt)}
	d.Views, err = viewsChart(v, mems, rep, now)
	if err != nil {
		return nil, err
	}
	for _, f := range rep.Findings {
		d.Findings = append(d.Findings, f.Message)
	}
	d.Facts = stateFacts(rep, now)
	return d, nil
}

// sourceOf is a claim's source as the audit counts it.
func sourceOf(meta *frontmatter.Meta) string {
	if meta.Source == "" {
		return "native"
	}
	return meta.Source
}

// monthsChart is valid_at by month, each bar stacked by source: an import
// whose dates all collapsed into the day it ran stands out as one bar.
func monthsChart(mems []*vault.Memory) chart {
	c := chart{Title: "Memories by the month of their valid_at, by source", Width: 1000, Height: 260}
	count := map[string]map[string]int{} // month → source → n
	bySource := map[string]int{}
	for _, m := range mems {
		if !m.OK() || !frontmatter.IsMemoryType(m.Meta().Type) || m.Meta().ValidAt.IsZero() {
			continue
		}
		month, src := m.Meta().ValidAt.Time.UTC().Format("2006-01"), sourceOf(m.Meta())
		if count[month] == nil {
			count[month] = map[string]int{}
		}
		count[month][src]++
		bySource[src]++
	}
	if len(count) == 0 {
		c.Empty = "No memory has a valid_at yet."
		return c
	}
	sources := slices.SortedFunc(maps.Keys(bySource), func(a, b string) int {
		return cmp.Or(bySource[b]-bySource[a], cmp.Compare(a, b))
	})
	class := map[string]string{}
	for i, s := range sources {
		class[s] = fmt.Sprintf("c%d", min(i, maxSources))
		if i < maxSources {
			c.Legend = append(c.Legend, legend{class[s], s})
		}
	}
	if len(sources) > maxSources {
		c.Legend = append(c.Legend, legend{fmt.Sprintf("c%d", maxSources), "other sources"})
	}
	// Every month from the first to the last, empty ones too: a gap is
	// as telling as a spike.
	keys := slices.Sorted(maps.Keys(count))
	first, _ := time.Parse("2006-01", keys[0])
	last, _ := time.Parse("2006-01", keys[len(keys)-1])
	var months []string
	for t := first; !t.After(last); t = t.AddDate(0, 1, 0) {
		months = append(months, t.Format("2006-01"))
	}
	if len(months) > maxMonths {
		c.Texts = append(c.Texts, text{X: 0, Y: 12, Anchor: "start", Text: fmt.Sprintf("the last %d months of %d", maxMonths, len(months))})
		months = months[len(months)-maxMonths:]
	}
	top := 1
	for _, mo := range months {
		n := 0
		for _, k := range count[mo] {
			n += k
		}
		top = max(top, n)
	}
	const left, right, bottom, plot = 40, 30, 40, 190 // the y axis's labels, room for the last month's, the x axis's, the bars' height
	step := (c.Width - left - right) / len(months)
	w := max(step-2, 1)
	c.Texts = append(c.Texts, text{X: left - 4, Y: c.Height - bottom - plot + 4, Anchor: "end", Text: fmt.Sprint(top)},
		text{X: left - 4, Y: c.Height - bottom, Anchor: "end", Text: "0"})
	for i, mo := range months {
		x, y := left+i*step, c.Height-bottom
		for _, s := range sources {
			n := count[mo][s]
			if n == 0 {
				continue
			}
			h := max(n*plot/top, 1)
			y -= h
			c.Rects = append(c.Rects, rect{X: x, Y: y, W: w, H: h, Class: class[s], Tip: fmt.Sprintf("%s: %d from %s", mo, n, s)})
		}
		// A label every few months, so they do not overlap.
		if every := max(len(months)/12, 1); i%every == 0 {
			c.Texts = append(c.Texts, text{X: x + w/2, Y: c.Height - bottom + 16, Anchor: "middle", Text: mo})
		}
	}
	return c
}

// coverageChart is the ranking column's coverage by source: the share of
// claims that carry a valid_at.
func coverageChart(cov audit.Coverage) chart {
	sources := slices.Sorted(maps.Keys(cov.BySource))
	c := chart{Title: "Share of claims with a valid_at, by source", Width: 1000, Height: 30*len(sources) + 10}
	if len(sources) == 0 {
		c.Empty = "No claims yet."
		return c
	}
	const left, barW = 240, 600
	for i, s := range sources {
		n := cov.BySource[s]
		dated := n.Total - n.Missing
		y := 5 + i*30
		c.Texts = append(c.Texts, text{X: left - 8, Y: y + 15, Anchor: "end", Text: s})
		c.Rects = append(c.Rects, rect{X: left, Y: y, W: barW, H: 20, Class: "frame", Tip: fmt.Sprintf("%s: %d claims", s, n.Total)})
		if n.Total > 0 && dated > 0 {
			c.Rects = append(c.Rects, rect{X: left, Y: y, W: dated * barW / n.Total, H: 20, Class: "ok", Tip: fmt.Sprintf("%s: %d of %d dated", s, dated, n.Total)})
		}
		c.Texts = append(c.Texts, text{X: left + barW + 8, Y: y + 15, Anchor: "start", Text: fmt.Sprintf("%d of %d dated", dated, n.Total)})
	}
	return c
}

// viewsChart is each rendered view's size now and 30 days ago against its
// budget: render.outputs' views, or without any, the vault-wide view (no
// project).
func viewsChart(v *vault.Vault, mems []*vault.Memory, rep *audit.Report, now time.Time) (chart, error) {
	type view struct {
		name                  string
		bytes, before, budget int
	}
	var vs []view
	growth := map[string]int{}
	for _, g := range rep.Growth {
		growth[g.Path] = g.Before
	}
	for _, s := range rep.Views {
		vs = append(vs, view{s.Path, s.Bytes, growth[s.Path], s.Budget})
	}
	if len(vs) == 0 {
		res, err := render.Render(mems, render.OptionsFor(v, nil, 0, now))
		if err != nil {
			return chart{}, err
		}
		old, err := render.Render(mems, render.OptionsFor(v, nil, 0, now.AddDate(0, 0, -30)))
		if err != nil {
			return chart{}, err
		}
		vs = append(vs, view{"the view with no project (no render.outputs)", len(res.Doc), len(old.Doc), res.Budget})
	}
	c := chart{Title: "Rendered view size against its budget, now and 30 days ago", Width: 1000, Height: 56*len(vs) + 10,
		Legend: []legend{{"ok", "now"}, {"old", "30 days ago"}, {"frame", "budget"}}}
	const left, barW = 240, 600
	for i, x := range vs {
		top := max(x.budget, x.bytes, x.before, 1)
		y := 5 + i*56
		c.Texts = append(c.Texts, text{X: left - 8, Y: y + 15, Anchor: "end", Text: x.name})
		c.Rects = append(c.Rects,
			rect{X: left, Y: y, W: x.budget * barW / top, H: 44, Class: "frame", Tip: fmt.Sprintf("budget %d bytes", x.budget)},
			rect{X: left, Y: y + 2, W: x.bytes * barW / top, H: 20, Class: "ok", Tip: fmt.Sprintf("now %d bytes", x.bytes)},
			rect{X: left, Y: y + 22, W: x.before * barW / top, H: 20, Class: "old", Tip: fmt.Sprintf("30 days ago %d bytes", x.before)})
		c.Texts = append(c.Texts, text{X: left + barW + 8, Y: y + 15, Anchor: "start", Text: fmt.Sprintf("%d of %d bytes", x.bytes, x.budget)},
			text{X: left + barW + 8, Y: y + 37, Anchor: "start", Text: fmt.Sprintf("%d bytes 30 days ago", x.before)})
	}
	return c, nil
}

// stateFacts are the index, the last commit and the last verified backup.
func stateFacts(r *audit.Report, now time.Time) []fact {
	ago := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04 UTC") + " (" + now.Sub(*t).Round(time.Minute).String() + " ago)"
	}
	idx := "not built yet (the first search builds it)"
	switch {
	case r.Index.Problem != "":
		idx = r.Index.Problem
	case r.Index.Exists && r.Index.Changed == 0:
		idx = fmt.Sprintf("fresh: %d files, built %s", r.Index.Files, ago(r.Index.Built))
	case r.Index.Exists:
		idx = fmt.Sprintf("%d files changed since it was built %s (a search refreshes it)", r.Index.Changed, ago(r.Index.Built))
	}
	commit := "never committed"
	switch {
	case r.Commit.Problem != "":
		commit = r.Commit.Problem
	case r.Commit.Committed:
		commit = shortCommit(r.Commit.Hash) + ", " + ago(r.Commit.At)
	}
	backup := "no verified backup (mem backup)"
	switch {
	case r.Backup.Problem != "":
		backup = r.Backup.Problem
	case r.Backup.Verified:
		backup = ago(r.Backup.At) + " to " + r.Backup.Target
		if r.Backup.Behind {
			backup += "; the vault has committed since"
		}
	}
	return []fact{
		{"Files", fmt.Sprintf("%d (%d broken)", r.Files, len(r.Broken))},
		{"Index", idx},
		{"Last commit", commit},
		{"Last verified backup", backup},
	}
}
