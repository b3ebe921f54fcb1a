package writer

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/vault"
)

// The edits of day two (spec §4: pin, retire, correct, edit, review,
// project add). Each goes through Update or Remember, so every rule of
// spec §8 is applied, the write is atomic and a caller's expectHash makes
// it a compare-and-swap.

// projectsDir is where project notes go (spec §2).
const projectsDir = "projects"

// ReasonKey is the frontmatter key retire writes its --reason into: the
// spec has no such key, and unknown keys are kept by every reader.
const ReasonKey = frontmatter.InvalidReasonKey

// unchanged turns errUnchanged into success: asking for what is already
// so is not an error.
func unchanged(m *vault.Memory, err error) (*vault.Memory, bool, error) {
	if errors.Is(err, errUnchanged) {
		return m, false, nil
	}
	return m, err == nil, err
}

// Pin sets (or clears) pinned on the memory ref names; section, when not
// empty, sets the pinned section too. changed is false when the file
// already said so.
func Pin(v *vault.Vault, f Front, ref, expectHash string, pinned bool, section string, now time.Time) (m *vault.Memory, changed bool, err error) {
	if section != "" {
		if section, err = sectionName(f, section); err != nil {
			return nil, false, err
		}
	}
	return unchanged(Update(v, f, ref, expectHash, now, func(doc *frontmatter.Document) error {
		if !frontmatter.IsMemoryType(doc.Meta.Type) {
			return fmt.Errorf("is a %s, not a memory: pin its pointer memory instead", doc.Meta.Type)
		}
		if doc.Meta.Pinned == pinned && (section == "" || doc.Meta.Section == section) {
			return errUnchanged
		}
		doc.Meta.Pinned = pinned
		if section != "" {
			doc.Meta.Section = section
		}
		return nil
	}))
}

// Retire sets invalid_at on the memory ref names (at; zero means now, and
// leaves a retired claim as it is) and records why; the file stays (spec §4: retire never deletes). An agent
// cannot retire what a person stated: it writes a correction.
func Retire(v *vault.Vault, f Front, ref, expectHash string, at frontmatter.Time, reason string, now time.Time) (*vault.Memory, bool, error) {
	given := !at.IsZero()
	if !given {
		at = frontmatter.NewTime(now)
	}
	reason = strings.TrimSpace(reason)
	return unchanged(Update(v, f, ref, expectHash, now, func(doc *frontmatter.Document) error {
		meta := &doc.Meta
		if f.Agent != "" && byPerson(meta) {
			return &Refusal{Rule: "agent-supersedes-person", Field: f.name("id"), Msg: "the claim is stated or was written by a person: an agent does not retire it; write a correction that names it (correct) saying what changed"}
		}
		if !meta.ValidAt.IsZero() && at.Before(meta.ValidAt.Time) {
			return fmt.Errorf("%s %s is before the claim's valid_at %s: a claim cannot stop being true before it became true", f.name("at"), at, meta.ValidAt)
		}
		// Retiring a retired claim keeps the record of when it stopped
		// being true (issue 34: it moved invalid_at to now); only an
		// explicit date moves it.
		if meta.InvalidAt.Equal(at.Time) && reason == "" || !meta.InvalidAt.IsZero() && !given {
			return errUnchanged
		}
		meta.InvalidAt = at
		if reason != "" {
			doc.SetKeptText(ReasonKey, reason)
		}
		return nil
	}))
}

// Correct writes n as a correction of the claim ref names: type
// correction, stated unless n says otherwise, superseding ref and keeping
// its scope (prepare's inheritScope).
func Correct(v *vault.Vault, f Front, ref string, n vault.NewMemory, now time.Time) (*vault.Memory, error) {
	if strings.TrimSpace(ref) == "" {
		return nil, fmt.Errorf("%s: name the claim to correct", f.name("id"))
	}
	n.Type = frontmatter.TypeCorrection
	n.Supersedes = append([]string{ref}, n.Supersedes...)
	return Remember(v, f, n, now)
}

// Accept is a person's review of the claim ref names (spec §4, §5.2b:
// mem accept, mem review): it adds verified by f.Person (a human: actor),
// so the claim counts as reviewed from now on, and an import becomes
// native (renders like any memory the user wrote; undated, it is dated
// now: the person vouching for it is a date, and an undated native claim
// sorts last). changed is false for a claim already reviewed. An agent
// cannot accept.
func Accept(v *vault.Vault, f Front, ref, expectHash string, now time.Time) (*vault.Memory, bool, error) {
	person, err := reviewer(f)
	if err != nil {
		return nil, false, err
	}
	return unchanged(Update(v, f, ref, expectHash, now, accept(person, now)))
}

// reviewer is the person f's review is recorded as, or why there is none.
func reviewer(f Front) (string, error) {
	if f.Agent != "" {
		return "", &Refusal{Rule: "agent-accept", Field: f.name("id"), Msg: "an agent cannot accept a claim: ask the user to run 'mem accept' or 'mem review'"}
	}
	if !strings.HasPrefix(f.Person, "human:") || len(f.Person) == len("human:") {
		return "", fmt.Errorf("accept: no person to record as the reviewer (%q): set author.email in mem.yaml, or git's user.email", f.Person)
	}
	return f.Person, nil
}

// accept is the edit Accept makes.
func accept(person string, now time.Time) func(*frontmatter.Document) error {
	return func(doc *frontmatter.Document) error {
		meta := &doc.Meta
		imported := strings.HasPrefix(meta.Source, "import:") || strings.HasPrefix(meta.Source, "capture:")
		if gate.Reviewed(meta) && !imported {
			return errUnchanged
		}
		if imported {
			meta.Source = ""
			if meta.ValidAt.IsZero() {
				meta.ValidAt = frontmatter.NewTime(now)
			}
		}
		if !gate.HumanVerified(meta) {
			meta.Verified = append(meta.Verified, frontmatter.Actor{By: person, At: frontmatter.NewTime(now)})
		}
		return nil
	}
}

// Reject deprecates the memory ref names (status: deprecated): it never
// renders, and the file stays for history.
func Reject(v *vault.Vault, f Front, ref, expectHash string, now time.Time) (*vault.Memory, bool, error) {
	return unchanged(Update(v, f, ref, expectHash, now, func(doc *frontmatter.Document) error {
		if doc.Meta.IsDeprecated() {
			return errUnchanged
		}
		doc.Meta.Status = frontmatter.StatusDeprecated
		return nil
	}))
}

// EditError is an edited file that may not be written: it does not
// parse, lint finds errors in it, or it breaks a rule of spec §8. Problems
// are lint's findings (path:line:col: rule: message) or the refusal.
type EditError struct {
	Problems []string
	Err      error // the refusal, when a rule of §8 refused it
}

func (e *EditError) Error() string { return strings.Join(e.Problems, "\n") }
func (e *EditError) Unwrap() error { return e.Err }

// Kind: an edit that may not be written is a failed check (exit 1).
func (e *EditError) Kind() fail.Kind { return fail.Check }

// Lint is lint's verdict on m, a file as it would be, among all (the
// vault's files with m in its place): the problems of severity error, each
// "path:line:col: rule: message". The caller passes lint.Errors: lint owns
// its rules alone, and the writer, which every MCP write goes through,
// links no linter.
type Lint func(v *vault.Vault, all []*vault.Memory, m *vault.Memory, now time.Time) []string

// Edit replaces the file ref names with data, the whole file as an editor
// saved it, when it still hashes to expectHash (the file as the editor
// opened it). The id cannot change (other claims supersede it by id). An
// edit lint finds errors in, or that breaks a rule of §8, comes back as
// an *EditError and nothing is written.
func Edit(v *vault.Vault, f Front, ref, expectHash string, data []byte, lint Lint, now time.Time) (*vault.Memory, bool, error) {
	mems, err := f.load(v)
	if err != nil {
		return nil, false, err
	}
	m, err := v.FindMemory(mems, ref)
	if err != nil {
		return nil, false, err
	}
	edited, err := vault.ParseFile(data)
	if err != nil {
		return m, false, &EditError{Problems: []string{fmt.Sprintf("%s:%v", m.Rel, err)}}
	}
	if edited.Meta.ID == "" {
		edited.Meta.ID = m.Meta().ID
	}
	if edited.Meta.ID != m.Meta().ID {
		return m, false, &EditError{Problems: []string{fmt.Sprintf("%s: id: changed from %q to %q: other claims name it by its id; keep it, and write a new memory instead", m.Rel, m.Meta().ID, edited.Meta.ID)}}
	}
	// Lint the edit as the file it will be, against the rest of the vault.
	probe := &vault.Memory{Path: m.Path, Rel: m.Rel, ID: m.ID, Doc: edited, Raw: string(data), Size: int64(len(data)), ModTime: now}
	others := slices.DeleteFunc(slices.Clone(mems), func(x *vault.Memory) bool { return x.Rel == m.Rel })
	if problems := lint(v, append(others, probe), probe, now); len(problems) > 0 {
		return m, false, &EditError{Problems: problems}
	}
	m, changed, err := unchanged(Update(v, f, m.Rel, expectHash, now, func(doc *frontmatter.Document) error {
		if string(doc.Marshal()) == string(edited.Marshal()) {
			return errUnchanged
		}
		*doc = *edited
		return nil
	}))
	var r *Refusal
	if errors.As(err, &r) {
		return m, false, &EditError{Problems: []string{m.Rel + ": " + r.Error()}, Err: r}
	}
	return m, changed, err
}

// NewProject is a project note to create.
type NewProject struct {
	ID    string   // proj_name
	Title string   // default: the name after proj_
	Roots []string // directories; relative ones are made absolute from Cwd
	Cwd   string
}

// AddProject writes a project note (type: project) under projects/. Roots
// under the home folder (the vault's Options.Home) are written with ~, so the note holds on every
// machine the vault syncs to; a root of / or the home folder itself is
// refused (it would claim every directory).
func AddProject(v *vault.Vault, f Front, p NewProject, now time.Time) (*vault.Memory, error) {
	if !vault.ProjectIDPattern().MatchString(p.ID) {
		return nil, fmt.Errorf("%s %q: a project id looks like proj_name (proj_ then a-z, 0-9, _ or -)", f.name("id"), p.ID)
	}
	if len(p.Roots) == 0 {
		return nil, fmt.Errorf("%s: give at least one directory that belongs to the project", f.name("roots"))
	}
	roots, err := projectRoots(v, f, p)
	if err != nil {
		return nil, err
	}
	title := strings.TrimSpace(p.Title)
	if title == "" {
		title = strings.TrimPrefix(p.ID, "proj_")
	}
	if err := v.CompletePending(); err != nil {
		return nil, err
	}
	mems, err := f.load(v)
	if err != nil {
		return nil, err
	}
	if old := vault.FindProject(v.Projects(mems), p.ID); old != nil {
		return nil, &Refusal{Rule: "project-exists", Field: f.name("id"), Msg: fmt.Sprintf("%s already names the project note %s: pick another id, or edit that note (mem edit %s)", p.ID, old.Rel, p.ID)}
	}
	doc := &frontmatter.Document{HasFrontmatter: true, Body: "# " + title + "\n",
		Meta: frontmatter.Meta{ID: p.ID, Type: frontmatter.TypeProject, Title: title, Roots: roots}}
	return Create(v, f, projectsDir, strings.TrimPrefix(p.ID, "proj_"), "", doc, now)
}

// projectRoots are p's roots as a project note keeps them: absolute,
// symlinks resolved, under the home folder with ~; a root too wide to be
// a project's is refused.
func projectRoots(v *vault.Vault, f Front, p NewProject) ([]string, error) {
	home := v.Home
	if r, err := filepath.EvalSymlinks(home); home != "" && err == nil {
		home = r
	}
	roots := make([]string, 0, len(p.Roots))
	for _, r := range p.Roots {
		abs := r
		if strings.HasPrefix(r, "~") {
			abs = v.Path(r)
		} else if !filepath.IsAbs(r) {
			abs = filepath.Join(p.Cwd, r)
		}
		abs = filepath.Clean(abs)
		if res, err := filepath.EvalSymlinks(abs); err == nil {
			abs = res
		}
		if err := v.CheckRoot(abs, "a project root"); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name("roots"), err)
		}
		if rel, err := filepath.Rel(home, abs); home != "" && err == nil && !strings.HasPrefix(rel, "..") {
			abs = "~/" + filepath.ToSlash(rel)
		}
		roots = append(roots, abs)
	}
	return roots, nil
}

// Fields are the edits SetFields makes; zero values leave a field as it is.
type Fields struct {
	Text       string
	Importance int
	Section    string
	Tags       []string // replaces the tags when not empty
	Key        string
	StaleAfter frontmatter.Time
}

// SetFields changes the fields of the memory ref names (MCP update). An
// agent cannot rewrite the text of what a person stated: it writes a
// correction, which keeps the old claim for history.
func SetFields(v *vault.Vault, f Front, ref, expectHash string, x Fields, now time.Time) (*vault.Memory, bool, error) {
	if x.Importance != 0 && (x.Importance < 1 || x.Importance > 10) {
		return nil, false, fmt.Errorf("%s %d: use a whole number from 1 to 10", f.name("importance"), x.Importance)
	}
	if x.Section != "" {
		var err error
		if x.Section, err = sectionName(f, x.Section); err != nil {
			return nil, false, err
		}
	}
	return unchanged(Update(v, f, ref, expectHash, now, func(doc *frontmatter.Document) error {
		before := string(doc.Marshal())
		m := &doc.Meta
		if text := strings.TrimSpace(x.Text); text != "" && text != strings.TrimSpace(doc.Body) {
			if f.Agent != "" && byPerson(m) {
				return &Refusal{Rule: "agent-supersedes-person", Field: f.name("text"), Msg: "the claim is stated or was written by a person: an agent does not rewrite it; write a correction that names it (correct) saying what changed"}
			}
			if r := needsEvidence(f, m, text); r != nil {
				return r // a rewrite into "I fixed it" needs what remember would
			}
			doc.Body = text + "\n"
		}
		x.set(m)
		if string(doc.Marshal()) == before {
			return errUnchanged
		}
		return nil
	}))
}

// set writes the fields x gives (all but Text) into m.
func (x Fields) set(m *frontmatter.Meta) {
	if x.Importance != 0 {
		m.Importance = x.Importance
	}
	if x.Section != "" {
		m.Section = x.Section
	}
	if len(x.Tags) > 0 {
		m.Tags = x.Tags
	}
	if x.Key != "" {
		m.Key = x.Key
	}
	if !x.StaleAfter.IsZero() {
		m.StaleAfter = x.StaleAfter
	}
}
