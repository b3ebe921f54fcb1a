// Package writer is the one door for every write of a memory or a note:
// the CLI's remember, note, signal and promote, the MCP server's tools and
// every importer go through it, so what lint forbids (spec §8) is never
// written, whoever writes it. Check applies the rules to the document as
// it will be stored; the vault's file layer (vault.Create, vault.Update)
// only places bytes.
package writer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// Where new files go (spec §2). Callers cannot choose, which keeps every
// new file inside the vault.
const (
	memoryDir = "memory"
	notesDir  = "notes"
)

// Front is who writes and how its refusals name what it wrote.
type Front struct {
	// Name turns one of the writer's field names (the MCP tools'
	// arguments: text, body, title, tags, valid_at, evidence…) into the
	// front end's: a CLI flag. Nil keeps the writer's name.
	Name func(field string) string
	// Agent is the name an agent's client gave (MCP initialize): its
	// writes are stamped generated.by process:<Agent> and it cannot
	// escalate (spec §8): no rule, no superseding what a person wrote
	// except with a correction. Empty for a person and for importers.
	Agent string
	// Person is the human: actor of a person's front (the commit author,
	// history.Repo.Person): what Accept records in verified. Empty where
	// no review is made.
	Person string
	// Context, when done (Ctrl-C, a daemon's shutdown), stops a write
	// before it writes: the vault's load stops (vault.LoadOptions), and a
	// write not yet begun is not made, with a fail.Interrupted error. A
	// batch (AcceptAll) keeps what it wrote before. Nil never stops.
	Context context.Context
}

// load reads the vault a write is checked against, stopped by f.Context.
func (f Front) load(v *vault.Vault) ([]*vault.Memory, error) {
	return v.Load(vault.LoadOptions{Context: f.Context})
}

// stopped is a fail.Interrupted error once f.Context is done, nil before:
// checked just before a file is written, so a stopped write changes nothing.
func (f Front) stopped() error {
	return fail.Stopped(f.Context, "the write (nothing was written)")
}

func (f Front) name(field string) string {
	if f.Name == nil || field == "file" {
		return field
	}
	return f.Name(field)
}

func (f Front) refusal(x finding) *Refusal {
	return &Refusal{Rule: x.Rule, Field: f.name(x.field), Msg: x.Msg}
}

// by is the generated.by of f's writes.
func (f Front) by() string {
	if f.Agent != "" {
		return "process:" + f.Agent
	}
	return vault.Producer()
}

// Refusal is a write the rules refuse (a secret, an injection, too long,
// an unearned rule, a supersedes that names nothing or moves memory
// backwards): the caller's check failed, as opposed to a malformed
// request. Its message names the rule, the field and what to do, and
// never quotes a secret.
type Refusal struct {
	Rule  string // the rule's name, as lint names it
	Field string // as the front end names it: a flag, a tool argument; "file" for the whole file
	Msg   string
	Err   error // the cause, when another error is behind it (errors.Is)
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("refused: %s: %s: %s", r.Field, r.Rule, r.Msg)
}
func (r *Refusal) Unwrap() error { return r.Err }

// Kind: a refused write is a failed check (exit 1).
func (r *Refusal) Kind() fail.Kind { return fail.Check }

// Dates reads the optional date inputs of a claim: valid_at, and either
// stale_after or a ttl counted from now. Errors name the inputs as f does.
func Dates(f Front, validAt, staleAfter, ttl string, now time.Time) (valid, stale frontmatter.Time, err error) {
	if validAt != "" {
		if valid, err = frontmatter.ParseTime(validAt); err != nil {
			return valid, stale, fmt.Errorf("%s: %w", f.name("valid_at"), err)
		}
	}
	switch {
	case staleAfter != "" && ttl != "":
		return valid, stale, fmt.Errorf("give %s or %s, not both", f.name("stale_after"), f.name("ttl"))
	case staleAfter != "":
		t, err := frontmatter.ParseTime(staleAfter)
		if err != nil {
			return valid, stale, fmt.Errorf("%s: %w", f.name("stale_after"), err)
		}
		// OKF's stale_after is an instant: a bare date is its midnight UTC.
		if stale = frontmatter.NewTime(t.Time); t.DateOnly {
			stale = frontmatter.StaleInstant(t.Time)
		}
	case ttl != "":
		if stale, err = vault.ParseTTL(ttl, now); err != nil {
			return valid, stale, fmt.Errorf("%s: %w", f.name("ttl"), err)
		}
	}
	return valid, stale, nil
}

// prepare builds and checks the document for n against the loaded vault
// without writing anything. A claim that supersedes others keeps their
// scope (inheritScope): what it corrects renders where they did.
func prepare(v *vault.Vault, f Front, mems []*vault.Memory, n vault.NewMemory, now time.Time) (*frontmatter.Document, error) {
	olds, err := superseded(v, f, mems, n.Supersedes)
	if err != nil {
		return nil, err
	}
	n = inheritScope(n, olds, v.Config.Render.Sections)
	doc, err := build(f, n, v.Projects(mems), now)
	if err != nil {
		return nil, err
	}
	if f.Agent != "" && doc.Meta.Type == frontmatter.TypeRule {
		return nil, &Refusal{Rule: "agent-rule", Field: f.name("type"), Msg: "an agent cannot write a standing rule: write a lesson (provenance inferred), add evidence with signal, and a person promotes it with 'mem promote' once it passes the gate"}
	}
	if r := needsEvidence(f, &doc.Meta, doc.Body); r != nil {
		return nil, r
	}
	if f.Agent != "" {
		if err := agentOverrules(f, &doc.Meta, mems, olds, now); err != nil {
			return nil, err
		}
	}
	err = gate.Supersede(&doc.Meta, olds)
	var se *gate.SupersessionError
	if errors.As(err, &se) {
		return nil, &Refusal{Rule: se.Rule, Field: f.name("supersedes"), Msg: se.Msg, Err: err}
	}
	if err != nil {
		return nil, err
	}
	doc.Meta.Generated = &frontmatter.Actor{By: f.by(), At: frontmatter.NewTime(now)}
	return doc, Check(v, f, doc, now)
}

// superseded are the claims refs name (a claim's supersedes), each found
// and readable.
func superseded(v *vault.Vault, f Front, mems []*vault.Memory, refs []string) ([]*vault.Memory, error) {
	olds := make([]*vault.Memory, len(refs))
	for i, ref := range refs {
		old, err := v.FindMemory(mems, ref)
		if errors.Is(err, vault.ErrNotFound) {
			return nil, &Refusal{Rule: "supersedes-unknown", Field: f.name("supersedes"), Msg: err.Error(), Err: err}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name("supersedes"), err)
		}
		if !old.OK() {
			return nil, fmt.Errorf("%s %s:%v (fix the file first; 'mem lint %s' shows the problem)", f.name("supersedes"), old.Rel, old.Err, old.Rel)
		}
		olds[i] = old
	}
	return olds, nil
}

// agentOverrules refuses an agent's new claim meta that would compete
// with what a person wrote or stated (spec §8): by taking the key of a
// person's claim it does not supersede, or by superseding one without
// being a correction.
func agentOverrules(f Front, meta *frontmatter.Meta, mems, olds []*vault.Memory, now time.Time) error {
	if meta.Key != "" {
		if p := personWithKey(mems, meta.Key, nil, now); p != nil && !slices.Contains(olds, p) {
			return keyTaken(f, p)
		}
	}
	for _, old := range olds {
		if meta.Type != frontmatter.TypeCorrection && byPerson(old.Meta()) {
			return &Refusal{Rule: "agent-supersedes-person", Field: f.name("supersedes"), Msg: fmt.Sprintf(
				"%s is stated or was written by a person: an agent replaces it only with a correction that names it (type correction, supersedes %s) saying what changed",
				old.ID, old.ID)}
		}
	}
	return nil
}

// inheritScope gives n what it did not say from the claims it supersedes,
// so a correction renders where the corrected claim did (spec §4): their
// project and section when they share one, the highest importance, and
// pinned when any was. A project of "auto" or "" counts as not given. A
// pinned claim's section is the one it renders under (from its type when
// it has none), since a correction's own type would move it to Notes.
func inheritScope(n vault.NewMemory, olds []*vault.Memory, sections []string) vault.NewMemory {
	if len(olds) == 0 {
		return n
	}
	sectionOf := func(m *frontmatter.Meta) string {
		if m.Pinned {
			return render.Section(m, sections)
		}
		return m.Section
	}
	project, section, sameProject, sameSection := olds[0].Meta().Project, sectionOf(olds[0].Meta()), true, true
	importance := 0
	for _, o := range olds {
		m := o.Meta()
		sameProject = sameProject && m.Project == project
		sameSection = sameSection && sectionOf(m) == section
		importance = max(importance, m.Importance)
		n.Pinned = n.Pinned || m.Pinned
	}
	if n.Importance == 0 {
		n.Importance = importance
	}
	if (n.Project == "" || n.Project == "auto") && sameProject {
		n.Project = project
		if project == "" {
			n.Project = "none" // a global claim's correction stays global, wherever it is written from
		}
	}
	if n.Section == "" && sameSection {
		n.Section = section
	}
	return n
}

// silences refuses an agent's edit that would stop what a person wrote
// from rendering or winning (spec §8): on such a claim, an earlier
// stale_after, any invalid_at, a lower importance, another key or
// project, unpinning, a status other than stable, or dropping a durable
// tag; on any claim, taking a key a person's claim holds. Retire and text
// edits say so in their own words first.
func silences(v *vault.Vault, f Front, was, now *frontmatter.Meta, mems []*vault.Memory, self *vault.Memory, at time.Time) error {
	if byPerson(was) {
		if what := silencing(v, was, now); what != "" {
			return &Refusal{Rule: "agent-supersedes-person", Field: f.name(what), Msg: fmt.Sprintf(
				"the claim is stated or was written by a person: an agent does not change its %s, which would stop it rendering or winning; write a correction that names it (correct) saying what changed", what)}
		}
	}
	if now.Key != "" && now.Key != was.Key {
		if p := personWithKey(mems, now.Key, self, at); p != nil {
			return keyTaken(f, p)
		}
	}
	return nil
}

// silencing is the first field whose change from was to now would stop a
// claim rendering or winning, "" when none would.
func silencing(v *vault.Vault, was, now *frontmatter.Meta) string {
	durable := func(m *frontmatter.Meta) bool {
		return slices.ContainsFunc(m.Tags, func(t string) bool { return slices.Contains(v.Config.DurableTags, t) })
	}
	switch {
	case !now.StaleAfter.IsZero() && (was.StaleAfter.IsZero() || now.StaleAfter.Before(was.StaleAfter.Time)):
		return "stale_after"
	case !now.InvalidAt.Equal(was.InvalidAt.Time):
		return "invalid_at"
	case importance(now) < importance(was):
		return "importance"
	case now.Key != was.Key:
		return "key"
	case was.Pinned && !now.Pinned:
		return "pinned"
	case now.Status != was.Status && now.Status != "" && now.Status != frontmatter.StatusStable:
		return "status"
	case now.Project != was.Project:
		return "project"
	case durable(was) && !durable(now):
		return "tags"
	}
	return ""
}

// importance is a claim's importance, the default when it gives none.
func importance(m *frontmatter.Meta) int {
	if m.Importance == 0 {
		return 5
	}
	return m.Importance
}

// personWithKey finds a current claim other than self that a person wrote
// or stated with the subject key.
func personWithKey(mems []*vault.Memory, key string, self *vault.Memory, now time.Time) *vault.Memory {
	for _, o := range mems {
		if o == self || !o.OK() {
			continue
		}
		if m := o.Meta(); m.Key == key && byPerson(m) && !m.IsDeprecated() && !m.IsRetired(now) {
			return o
		}
	}
	return nil
}

// keyTaken is the refusal of an agent's claim competing with p by key.
func keyTaken(f Front, p *vault.Memory) *Refusal {
	return &Refusal{Rule: "agent-supersedes-person", Field: f.name("key"), Msg: fmt.Sprintf(
		"%s has key %q and is stated or was written by a person: an agent's claim with that key would compete with it; write a correction that names it (type correction, supersedes %s) saying what changed",
		p.ID, p.Meta().Key, p.ID)}
}

// byPerson reports a claim an agent may not overrule: a person wrote or
// accepted it (gate.Reviewed: by hand, through the CLI, or verified by a
// human: actor), or it says the user stated it.
func byPerson(m *frontmatter.Meta) bool {
	return m.Provenance == frontmatter.Stated || gate.Reviewed(m)
}

// Remember checks n against the vault and writes it as a new memory.
func Remember(v *vault.Vault, f Front, n vault.NewMemory, now time.Time) (*vault.Memory, error) {
	if err := v.CompletePending(); err != nil {
		return nil, err
	}
	mems, err := f.load(v)
	if err != nil {
		return nil, err
	}
	doc, err := prepare(v, f, mems, n, now)
	if err != nil {
		return nil, err
	}
	if err := checkName(f, "text", memoryDir, n.Text); err != nil {
		return nil, err
	}
	if err := f.stopped(); err != nil {
		return nil, err
	}
	return v.Create(memoryDir, n.Text, doc, now)
}

// checkName refuses a file name under dir made from slugText that would
// hold a secret, as a secret in the text is refused (spec §8: a file name
// is never built from text that holds one). The text and the name made
// from it (vault.Slug: lower case, a dash for anything else) are each
// scanned, as the vault's scan would scan the file's path; field names
// the input the name comes from.
func checkName(f Front, field, dir, slugText string) error {
	found := rules.Secrets(slugText)
	if len(found) == 0 {
		found = rules.Name(dir + "/" + vault.Slug(slugText, 48) + "-000000.md")
	}
	if len(found) > 0 {
		return &Refusal{Rule: found[0].Rule, Field: f.name(field) + " (as a file name)", Msg: found[0].What + ": a file name is made from it; remove the key and rotate it (it may already be in git history)"}
	}
	return nil
}

// Create checks doc and writes it as a new file under dir, its name made
// from slugText (which must be text doc holds: a file name is never built
// from text that fails the secret scan) and suffix (vault.CreateAs: empty
// is a random one). Importers write through it, with a suffix from the
// item's import key, so one item has one path on every machine.
func Create(v *vault.Vault, f Front, dir, slugText, suffix string, doc *frontmatter.Document, now time.Time) (*vault.Memory, error) {
	if doc.Meta.Generated == nil {
		doc.Meta.Generated = &frontmatter.Actor{By: f.by(), At: frontmatter.NewTime(now)}
	}
	if err := Check(v, f, doc, now); err != nil {
		return nil, err
	}
	if err := checkName(f, "file name", dir, slugText); err != nil {
		return nil, err
	}
	if err := v.CompletePending(); err != nil {
		return nil, err
	}
	if err := f.stopped(); err != nil {
		return nil, err
	}
	return v.CreateAs(dir, slugText, suffix, doc, now)
}

// Note writes a long-form note with the given title and body, then its
// one-line pointer memory carrying claim's fields. Both are checked before
// either is written (the pointer with a placeholder id as long as the real
// one), and vault.CreatePair writes them so that a refusal, a failure or a
// crash leaves both or neither (docs/frontmatter.md).
func Note(v *vault.Vault, f Front, title, body string, claim vault.NewMemory, now time.Time) (note, pointer *vault.Memory, err error) {
	title = strings.TrimSpace(title)
	switch {
	case title == "":
		return nil, nil, fmt.Errorf("%s: the note needs a one-line title", f.name("title"))
	case strings.IndexFunc(title, rules.LineBreak) >= 0:
		return nil, nil, fmt.Errorf("%s: the title has a line break: give a one-line title", f.name("title"))
	case strings.TrimSpace(body) == "":
		return nil, nil, fmt.Errorf("%s: the note is empty: give its text", f.name("body"))
	}
	mems, err := f.load(v)
	if err != nil {
		return nil, nil, err
	}
	n := claim
	n.Type, n.Title, n.Text, n.Supersedes, n.Pinned, n.Key = frontmatter.TypeNote, title, body, nil, false, ""
	noteDoc, err := build(f, n, v.Projects(mems), now)
	if err != nil {
		return nil, nil, err
	}
	noteDoc.Meta.Generated = &frontmatter.Actor{By: f.by(), At: frontmatter.NewTime(now)}
	if err := Check(v, f, noteDoc, now); err != nil {
		return nil, nil, err
	}
	if err := checkName(f, "title", notesDir, title); err != nil {
		return nil, nil, err
	}
	claim.Text = vault.PointerText(title, notesDir+"/"+vault.Slug(title, 48)+"-000000")
	pointerDoc, err := prepare(v, f, mems, claim, now)
	if err != nil {
		return nil, nil, err
	}
	if err := f.stopped(); err != nil {
		return nil, nil, err
	}
	return v.CreatePair(notesDir, title, noteDoc, memoryDir, vault.PointerText(title, ""), func(noteID string) *frontmatter.Document {
		pointerDoc.Body = vault.PointerText(title, noteID) + "\n"
		return pointerDoc
	}, now)
}

// Update is the door for every edit of an existing memory or note (signal,
// promote, and the editing commands of day two): it finds ref among the
// files the loader reads, lets edit change the document under the file's
// lock (refusing when expectHash, if given, no longer matches), stamps
// generated and checks the result. An edit may not add a broken rule;
// what the file broke before the edit is left to lint. Errors from edit
// come back wrapped with the file's path.
func Update(v *vault.Vault, f Front, ref, expectHash string, now time.Time, edit func(*frontmatter.Document) error) (*vault.Memory, error) {
	if err := v.CompletePending(); err != nil {
		return nil, err
	}
	mems, err := f.load(v)
	if err != nil {
		return nil, err
	}
	m, err := v.FindMemory(mems, ref)
	if err != nil {
		return nil, err
	}
	return updateIn(v, f, mems, m, expectHash, now, edit)
}

// updateIn is Update of m, found among mems (the vault as loaded), so a
// batch of edits (AcceptAll) loads the vault once.
func updateIn(v *vault.Vault, f Front, mems []*vault.Memory, m *vault.Memory, expectHash string, now time.Time, edit func(*frontmatter.Document) error) (*vault.Memory, error) {
	if !m.OK() {
		return nil, fmt.Errorf("%s:%v (fix the file first; 'mem lint %s' shows the problem)", m.Rel, m.Err, m.Rel)
	}
	if err := f.stopped(); err != nil {
		return m, err
	}
	err := v.Update(m.Rel, expectHash, now, func(doc *frontmatter.Document) error {
		return checkedEdit(v, f, mems, m, doc, now, edit)
	})
	return m, namedUpdateError(m, err)
}

// checkedEdit lets edit change doc, the file m as it is under its lock,
// then refuses what f may not do and any rule the edit newly breaks (or a
// standing one it leaves broken), and stamps generated.
func checkedEdit(v *vault.Vault, f Front, mems []*vault.Memory, m *vault.Memory, doc *frontmatter.Document, now time.Time, edit func(*frontmatter.Document) error) error {
	before := map[string]bool{}
	for _, x := range check(v, doc, now) {
		before[x.key()] = true
	}
	was := doc.Meta
	if err := edit(doc); err != nil {
		return err
	}
	if f.Agent != "" {
		if err := silences(v, f, &was, &doc.Meta, mems, m, now); err != nil {
			return err
		}
	}
	// A key given twice is read as neither value (Obsidian keeps one):
	// a value written beside them would be a third, read as none. An
	// edit of the whole file (mem edit) that merges them is welcome.
	for _, p := range doc.Problems {
		if p.Kind == frontmatter.Duplicate {
			return fmt.Errorf("line %d: key %q appears twice, so mem cannot tell what it says: merge them first ('mem lint %s' shows both)", p.Line, p.Key, m.Rel)
		}
	}
	if f.Agent != "" && !slices.Equal(was.Verified, doc.Meta.Verified) {
		return &Refusal{Rule: "agent-accept", Field: f.name("verified"), Msg: "an agent cannot accept or un-accept a claim: a person does, with 'mem accept' or 'mem review'"}
	}
	stampAuthor(f, &was, doc, now)
	for _, x := range check(v, doc, now) {
		if x.standing() {
			x.Msg = m.Rel + ": " + x.Msg
		}
		if !before[x.key()] || x.standing() {
			return f.refusal(x)
		}
	}
	return nil
}

// namedUpdateError is err of an update of m, with m's path when it does
// not name the file already.
func namedUpdateError(m *vault.Memory, err error) error {
	var r *Refusal
	var gr *gate.RefusedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &r) || errors.Is(err, errUnchanged) || errors.Is(err, vault.ErrConflict):
		return err // each names the file already
	case errors.As(err, &gr):
		return fmt.Errorf("%s: refused: %w", m.Rel, err)
	}
	return fmt.Errorf("%s: %w", m.Rel, err)
}

// stampAuthor sets generated on an edited document. Who wrote a claim
// decides whether it is reviewed (spec §5.2b), and an edit changes that
// only through verified (mem accept): an agent's edit of what a person
// wrote or accepted keeps the person's authorship (a signal adds evidence,
// it does not make the claim the agent's to overrule; a hand-written file
// stays without generated), and a person's edit of an agent's or an
// importer's claim keeps theirs (an edit is not a review).
func stampAuthor(f Front, was *frontmatter.Meta, doc *frontmatter.Document, now time.Time) {
	by := f.by()
	switch reviewed := gate.Reviewed(was); {
	case was.Generated == nil && f.Agent != "" && reviewed:
		doc.Meta.Generated = nil
		return
	case was.Generated != nil && (strings.HasPrefix(was.Generated.By, "human:") || (f.Agent != "") == reviewed):
		by = was.Generated.By
	}
	doc.Meta.Generated = &frontmatter.Actor{By: by, At: frontmatter.NewTime(now)}
}

// errUnchanged is what an edit returns to leave the file as it is.
var errUnchanged = errors.New("unchanged")

// SignalResult is the gate's answer after a signal.
type SignalResult struct {
	Memory  *vault.Memory
	Added   bool // false when this session already gave this evidence
	Type    string
	Verdict gate.Verdict
}

// Signal records one piece of evidence for the inferred lesson or rule ref
// names (gate.AddSignal), through Update.
func Signal(v *vault.Vault, f Front, ref, expectHash string, s frontmatter.Signal, now time.Time) (SignalResult, error) {
	var res SignalResult
	if err := gate.CheckSignal(s, now); err != nil {
		return res, err
	}
	m, err := Update(v, f, ref, expectHash, now, func(doc *frontmatter.Document) error {
		var err error
		if res.Added, err = gate.AddSignal(doc, s); err != nil {
			return err
		}
		res.Verdict, res.Type = gate.Evaluate(&doc.Meta, now, v.Config.Gate), doc.Meta.Type
		if !res.Added {
			return errUnchanged
		}
		return nil
	})
	res.Memory = m
	if errors.Is(err, errUnchanged) {
		err = nil
	}
	return res, err
}

// Promote turns the lesson ref names into a rule through the gate
// (gate.Promote). An agent cannot promote: that is a person's decision.
func Promote(v *vault.Vault, f Front, ref string, now time.Time) (*vault.Memory, gate.Verdict, error) {
	var verdict gate.Verdict
	if f.Agent != "" {
		return nil, verdict, &Refusal{Rule: "agent-rule", Field: f.name("id"), Msg: "an agent cannot promote a lesson to a rule: ask the user to run 'mem promote'"}
	}
	m, err := Update(v, f, ref, "", now, func(doc *frontmatter.Document) error {
		var err error
		verdict, err = gate.Promote(doc, now, v.Config.Gate)
		return err
	})
	return m, verdict, err
}
