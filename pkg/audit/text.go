package audit

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxListed bounds the paths the text report lists per finding; the JSON
// report lists them all.
const maxListed = 5

// WriteFindings prints the verdict and each check past its threshold:
// all `mem audit --quiet` says.
func WriteFindings(w io.Writer, r *Report) error {
	p := &printer{w: w}
	p.findings(r)
	return p.err
}

func (p *printer) findings(r *Report) {
	defer func() {
		for _, w := range r.Warnings {
			p.f("  warning: %s\n", w)
		}
	}()
	if r.Healthy {
		p.f("mem audit: healthy: %s, every check within its threshold\n", r.Counts)
		return
	}
	past := "past their thresholds"
	if len(r.Findings) == 1 {
		past = "past its threshold"
	}
	p.f("mem audit: %s %s; %s\n", Quantity(len(r.Findings), "check", "checks"), past, r.Counts)
	for _, f := range r.Findings {
		if f.Value != nil {
			p.f("  FAIL %s (%s > %s): %s\n", f.Check, num(*f.Value), num(f.Limit), f.Message)
		} else {
			p.f("  FAIL %s: %s\n", f.Check, f.Message)
		}
	}
}

// WriteText prints the report for a person: the verdict and the checks past
// their thresholds first, then one short block per measure, counts before
// the offending paths.
func WriteText(w io.Writer, r *Report) error {
	p := &printer{w: w}
	p.findings(r)
	p.f("\n")
	for _, section := range []func(*Report){p.files, p.rules, p.validAt, p.imports, p.projects, p.ages, p.conflicts, p.duplicates, p.views, p.state} {
		section(r)
	}
	return p.err
}

// files prints broken and other-typed files, which are not counted.
func (p *printer) files(r *Report) {
	if len(r.Broken) > 0 {
		p.f("broken: %s not parse and are not counted (run 'mem lint')\n", Quantity(len(r.Broken), "file does", "files do"))
		list(p, r.Broken, func(s string) string { return s })
	}

	if n := r.Untyped + sum(r.OtherTypes); n > 0 {
		p.f("other types: %s kept as written and treated as notes, not counted as memories\n", Quantity(n, "file", "files"))
		types := make([]string, 0, len(r.OtherTypes))
		for t := range r.OtherTypes {
			types = append(types, t)
		}
		slices.SortFunc(types, func(a, b string) int {
			return cmp.Or(cmp.Compare(r.OtherTypes[b], r.OtherTypes[a]), strings.Compare(a, b))
		})
		list(p, types, func(t string) string { return fmt.Sprintf("%s: %d", t, r.OtherTypes[t]) })
		if r.Untyped > 0 {
			p.f("  with no type: %d\n", r.Untyped)
		}
	}
}

// rules prints the files that break a rule of docs/security.md, by rule.
func (p *printer) rules(r *Report) {
	if len(r.Rules) == 0 {
		p.f("rules: no file breaks a rule (docs/security.md)\n")
	} else {
		p.f("rules: files that break a rule (docs/security.md), by rule\n")
		list(p, r.Rules, func(b RuleBreak) string {
			return fmt.Sprintf("%s (%s, %d): %s", b.Rule, b.Kind, b.Count, capped(b.Paths))
		})
	}
}

// validAt prints valid_at's coverage, and each source's missing ones, most first.
func (p *printer) validAt(r *Report) {
	p.f("valid_at: %d of %d %s missing (%s)\n", r.ValidAt.Missing, r.ValidAt.Total, r.ValidAt.noun(), pct(r.ValidAt.Missing, r.ValidAt.Total))
	sources := make([]string, 0, len(r.ValidAt.BySource))
	for s := range r.ValidAt.BySource {
		sources = append(sources, s)
	}
	slices.SortFunc(sources, func(a, b string) int {
		sa, sb := r.ValidAt.BySource[a], r.ValidAt.BySource[b]
		if sa.Missing != sb.Missing {
			return sb.Missing - sa.Missing
		}
		return strings.Compare(a, b)
	})
	for _, s := range sources {
		if n := r.ValidAt.BySource[s]; n.Missing > 0 {
			p.f("  %s: %d of %d missing\n", s, n.Missing, n.Total)
		}
	}
}

// imports prints the busiest days of imported memories.
func (p *printer) imports(r *Report) {
	if len(r.ImportClusters) == 0 {
		p.f("import clusters: none\n")
	} else {
		p.f("import clusters: busiest days of imported memories\n")
		list(p, r.ImportClusters, func(c Cluster) string {
			return fmt.Sprintf("%s imported %s: %d on %s (%s of that import)", c.Source, cmp.Or(c.Imported, "(day unknown)"), c.Count, c.Day, num100(c.Share))
		})
	}
}

// projects prints the share of memories in a project, and those naming no project note.
func (p *printer) projects(r *Report) {
	orphaned := 0
	for _, o := range r.OrphanProjects {
		orphaned += o.Count
	}
	p.f("projects: %s of memories carry a project; %d name no project note\n", num100(r.ProjectShare), orphaned)
	list(p, r.OrphanProjects, func(o Orphan) string {
		return fmt.Sprintf("%s (%d): %s", o.Project, o.Count, capped(o.Paths))
	})
}

// ages prints the claims past stale_after, and the observed facts without one.
func (p *printer) ages(r *Report) {
	p.f("stale: %d past stale_after\n", len(r.Stale))
	list(p, r.Stale, func(s Stale) string { return s.StaleAfter + " " + s.Path })
	p.f("no expiry: %d observed facts without stale_after\n", len(r.NoExpiry))
	list(p, r.NoExpiry, func(n NoExpiry) string { return cmp.Or(n.ValidAt, "undated") + " " + n.Path })
}

// conflicts prints the conflicts the reconciler decided, and how many the files leave open.
func (p *printer) conflicts(r *Report) {
	attention := 0
	for _, c := range r.Conflicts {
		if needsAttention(c) {
			attention++
		}
	}
	p.f("conflicts: %d, %d left open by the files (two claims correcting one, a tie, or a refused supersedes)\n", len(r.Conflicts), attention)
	list(p, r.Conflicts, func(c Conflict) string {
		losers := make([]string, len(c.Losers))
		for i, l := range c.Losers {
			losers[i] = l.Path
		}
		return fmt.Sprintf("%s: %s beat %s: %s", c.Reason, c.Winner.Path, capped(losers), c.Detail)
	})
}

// duplicates prints the texts stored in more than one file.
func (p *printer) duplicates(r *Report) {
	files := 0
	for _, d := range r.Duplicates {
		files += len(d.Paths)
	}
	p.f("duplicates: %d texts stored in %d files\n", len(r.Duplicates), files)
	list(p, r.Duplicates, func(d Duplicate) string { return fmt.Sprintf("%q: %s", short(d.Text), capped(d.Paths)) })
}

// views prints each view's size against its budget, whether it is a fossil, and its growth.
func (p *printer) views(r *Report) {
	if len(r.Views) == 0 {
		p.f("views: none listed in mem.yaml render.outputs\n")
	}
	for _, v := range r.Views {
		line := fmt.Sprintf("view %s: %d of %d bytes (%s)", v.Path, v.Bytes, v.Budget, pct(v.Bytes, v.Budget))
		if v.OverBudget > 0 {
			line += fmt.Sprintf(", %d memories over budget", v.OverBudget)
		}
		switch {
		case v.Problem != "":
			line += "; fossil: " + v.Problem
		case v.Fossil:
			line += fmt.Sprintf("; fossil: rendering now adds %d lines and removes %d", v.Added, v.Removed)
			if v.Newest != nil && v.Written != nil {
				line += fmt.Sprintf("; it was written %s, %s changed %s", v.Written.Format(time.RFC3339), v.Newest.Path, v.Newest.Modified.Format(time.RFC3339))
			}
		default:
			line += "; up to date"
		}
		p.f("%s\n", line)
	}
	for _, g := range r.Growth {
		p.f("growth %s: %d bytes now, %d 30 days ago (%+.0f%%)\n", g.Path, g.Bytes, g.Before, g.Share*100)
	}
}

// state prints the index, the last commit, held-back config and the last verified backup.
func (p *printer) state(r *Report) {
	switch {
	case !r.Index.Exists:
		p.f("index: none usable (%s); 'mem rebuild-index' or the next search builds it\n", r.Index.Problem)
	case r.Index.Changed == 0:
		p.f("index: fresh (%s)\n", Quantity(r.Index.Files, "file", "files"))
	default:
		p.f("index: %d of %s changed since it was built\n", r.Index.Changed, Quantity(r.Index.Files, "file", "files"))
	}
	if r.Commit.Committed {
		p.f("commit: last %s ago (%s)\n", age(r.Commit.AgeHours), r.Commit.Hash[:min(7, len(r.Commit.Hash))])
	} else {
		p.f("commit: none: %s\n", r.Commit.Problem)
	}
	for _, h := range r.Held {
		p.f("held back: %s: 'mem sync --accept-config' takes it\n", h)
	}
	if r.Backup.Verified {
		behind := ", holds the vault's HEAD"
		if r.Backup.Behind {
			behind = ", behind the vault's HEAD"
		}
		// The backup counts the markdown files mem reads, not memories by
		// type: an OKF bundle of 17 concepts holds 0 memories.
		p.f("backup: verified %s ago to %s (%s, %d of them markdown%s)\n", age(r.Backup.AgeHours), r.Backup.Target, Quantity(r.Backup.Files, "file", "files"), r.Backup.Memories, behind)
	} else {
		p.f("backup: none: %s\n", r.Backup.Problem)
	}
}

// printer keeps the first write error so the report reads as prose.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// list prints the first maxListed items, indented, and how many are left.
func list[T any](p *printer, items []T, line func(T) string) {
	for _, it := range items[:min(len(items), maxListed)] {
		p.f("  %s\n", line(it))
	}
	if len(items) > maxListed {
		p.f("  … and %d more\n", len(items)-maxListed)
	}
}

// capped joins paths, the first maxListed of them.
func capped(paths []string) string {
	s := strings.Join(paths[:min(len(paths), maxListed)], ", ")
	if len(paths) > maxListed {
		s += fmt.Sprintf(" … and %d more", len(paths)-maxListed)
	}
	return s
}

// short cuts a long text to one readable line.
func short(s string) string {
	const width = 80
	if r := []rune(s); len(r) > width {
		return string(r[:width-1]) + "…"
	}
	return s
}

func sum(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func num100(share float64) string { return strconv.FormatFloat(share*100, 'f', 0, 64) + "%" }

func pct(n, of int) string {
	if of == 0 {
		return "0%"
	}
	return strconv.FormatFloat(float64(n)*100/float64(of), 'f', 1, 64) + "%"
}

// age says hours as a person would: hours under two days, days beyond.
func age(hours float64) string {
	if hours < 48 {
		return strconv.FormatFloat(hours, 'f', 1, 64) + " hours"
	}
	return strconv.FormatFloat(hours/24, 'f', 1, 64) + " days"
}
