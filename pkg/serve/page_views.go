package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/mem-md/mem/pkg/consolidate"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/wiring"
	"github.com/mem-md/mem/pkg/writer"
)

func (p *Page) routes() {
	m := http.NewServeMux()
	m.Handle("GET /assets/style.css", http.FileServerFS(pageFiles))
	m.HandleFunc("GET /{$}", p.sessionView)
	m.HandleFunc("GET /search", p.search)
	m.HandleFunc("GET /review", p.review)
	m.HandleFunc("GET /memory", p.memory)
	m.HandleFunc("GET /health", p.health)
	m.HandleFunc("POST /memory/edit", p.edit)
	// Each action of the review queues: the writer function the CLI's
	// command calls, as the person logged in.
	for path, act := range map[string]func(*http.Request, writer.Front) (string, error){
		"/review/accept":     p.accept,
		"/review/reject":     p.reject,
		"/review/accept-all": p.acceptAll,
		"/review/undo":       p.undoReview,
		"/review/retire":     p.retire,
		"/review/redate":     p.redate,
		"/consolidate/apply": p.apply,
		"/consolidate/undo":  p.undoConsolidate,
	} {
		m.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
			f, err := p.front()
			msg := ""
			if err == nil {
				msg, err = act(r, f)
			}
			if err != nil {
				msg = "Not done: " + err.Error()
			}
			p.flash(r, msg)
			back(w, r, "/review")
		})
	}
	p.mux = m
}

type searchData struct {
	Query  string
	Ran    bool
	Result inspect.Result
	Stale  string
}

func (p *Page) search(w http.ResponseWriter, r *http.Request) {
	d := searchData{Query: r.URL.Query().Get("q")}
	if strings.TrimSpace(d.Query) == "" {
		p.show(w, r, http.StatusOK, "search", "Search", d, "")
		return
	}
	res, err := p.o.Search(r.Context(), index.Query{Text: d.Query, Limit: 30, Now: p.o.Now()})
	if err != nil {
		p.show(w, r, http.StatusUnprocessableEntity, "search", "Search", d, err.Error())
		return
	}
	d.Ran, d.Result = true, inspect.Present(p.o.Vault, res)
	if !res.Index.Fresh {
		d.Stale = fmt.Sprintf("the index is stale: %d files changed since it was built and are not in this answer; search again in a moment", res.Index.Changed)
	}
	p.show(w, r, http.StatusOK, "search", "Search: "+d.Query, d, "")
}

// proposal is a consolidate proposal with the key its form names it by.
type proposal struct {
	consolidate.Proposal
	Key string
}

// key names a proposal across two runs of consolidate.Find.
func key(pr consolidate.Proposal) string {
	return pr.Kind + " " + pr.Action + " " + strings.Join(pr.IDs, " ")
}

// queueShown bounds each queue the review page lists: the newest first
// (an import of thousands is decided with "accept all", or mem review).
const queueShown = 200

type reviewData struct {
	Pending   []inspect.Entry // the newest queueShown of Waiting
	Waiting   int
	Queue     string     // queueDigest of all Waiting: accept-all takes what was drawn, no more
	Shown     []proposal // the first queueShown of Proposals
	Proposals int
	Rivals    []string
}

func (p *Page) review(w http.ResponseWriter, r *http.Request) {
	x, err := inspect.Load(p.o.Vault, p.o.Now(), p.o.Env)
	if err != nil {
		p.fail(w, r, "review", "Review", err)
		return
	}
	rep, err := consolidate.Find(p.o.Vault, x.Mems, consolidate.Options{Now: p.o.Now()})
	if err != nil {
		p.fail(w, r, "review", "Review", err)
		return
	}
	pending := x.Pending("")
	d := reviewData{Pending: pending[:min(len(pending), queueShown)], Waiting: len(pending), Queue: queueDigest(pending), Proposals: len(rep.Proposals), Rivals: x.Rivals()}
	for _, pr := range rep.Proposals[:min(len(rep.Proposals), queueShown)] {
		d.Shown = append(d.Shown, proposal{pr, key(pr)})
	}
	p.show(w, r, http.StatusOK, "review", "Review", d, "")
}

func (p *Page) accept(r *http.Request, f writer.Front) (string, error) {
	m, changed, err := writer.Accept(p.o.Vault, f, r.PostForm.Get("id"), r.PostForm.Get("hash"), p.o.Now())
	if err != nil {
		return "", err
	}
	if !changed {
		return m.ID + ": already reviewed", nil
	}
	return m.ID + ": accepted, reviewed by " + f.Person, nil
}

func (p *Page) reject(r *http.Request, f writer.Front) (string, error) {
	m, _, err := writer.Reject(p.o.Vault, f, r.PostForm.Get("id"), r.PostForm.Get("hash"), p.o.Now())
	if err != nil {
		return "", err
	}
	return m.ID + ": rejected (status: deprecated)", nil
}

func (p *Page) acceptAll(r *http.Request, f writer.Front) (string, error) {
	x, err := inspect.Load(p.o.Vault, p.o.Now(), p.o.Env)
	if err != nil {
		return "", err
	}
	pending := x.Pending("")
	// A claim an agent wrote after the page was drawn is not the person's
	// to accept unseen: the queue must be the one the page showed.
	if r.PostForm.Get("queue") != queueDigest(pending) {
		return "", errors.New("the queue changed since this page was drawn (a claim came or went): nothing was accepted; reload the page and review it again")
	}
	var refs []string
	for _, e := range pending {
		refs = append(refs, e.Path)
	}
	b, err := writer.AcceptAll(p.o.Vault, f, refs, p.o.Now())
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d claims accepted (undo puts them back)", len(b.Files)), nil
}

func (p *Page) undoReview(*http.Request, writer.Front) (string, error) {
	b, err := writer.UndoReview(p.o.Vault)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d claims of the accept-all of %s put back, unreviewed", len(b.Files), b.At.Format("2006-01-02 15:04")), nil
}

func (p *Page) retire(r *http.Request, f writer.Front) (string, error) {
	m, _, err := writer.Retire(p.o.Vault, f, r.PostForm.Get("id"), r.PostForm.Get("hash"), frontmatter.Time{}, r.PostForm.Get("reason"), p.o.Now())
	if err != nil {
		return "", err
	}
	return m.ID + ": retired", nil
}

// redate gives a stale claim a person re-checked a new stale_after.
func (p *Page) redate(r *http.Request, f writer.Front) (string, error) {
	t, err := frontmatter.ParseTime(r.PostForm.Get("stale_after"))
	if err != nil {
		return "", fmt.Errorf("stale_after: %w", err)
	}
	if !t.After(p.o.Now()) {
		return "", errors.New("stale_after: give a date after today: the claim was re-checked now")
	}
	m, _, err := writer.SetFields(p.o.Vault, f, r.PostForm.Get("id"), r.PostForm.Get("hash"), writer.Fields{StaleAfter: t}, p.o.Now())
	if err != nil {
		return "", err
	}
	return m.ID + ": stale_after is now " + t.String(), nil
}

// apply carries out the one proposal the form names, found again now: if
// the vault changed so that it is no longer proposed, nothing is done.
func (p *Page) apply(r *http.Request, f writer.Front) (string, error) {
	mems, err := p.o.Vault.Load(vault.LoadOptions{})
	if err != nil {
		return "", err
	}
	rep, err := consolidate.Find(p.o.Vault, mems, consolidate.Options{Now: p.o.Now()})
	if err != nil {
		return "", err
	}
	for _, pr := range rep.Proposals {
		if key(pr) != r.PostForm.Get("key") {
			continue
		}
		if pr.Refused != "" {
			return "", errors.New(pr.Refused)
		}
		now := p.o.Now()
		outs, b, err := consolidate.Apply(p.o.Vault, f, []consolidate.Proposal{pr}, now, wiring.CommitPaths(p.o.Vault, now, p.o.Env), nil)
		if err != nil {
			return "", err
		}
		var done []string
		for _, o := range outs {
			done = append(done, o.Action+" "+strings.Join(o.Paths, ", ")+": "+o.Result)
		}
		msg := strings.Join(done, "; ")
		if b != nil {
			msg += fmt.Sprintf(" (batch %s, %d files; undo puts them back)", shortCommit(b.Commit), len(b.Files))
		}
		return msg, nil
	}
	return "", errors.New("that proposal is no longer made (the vault changed): see the list as it is now")
}

func (p *Page) undoConsolidate(*http.Request, writer.Front) (string, error) {
	b, err := consolidate.Undo(p.o.Vault, wiring.CommitPaths(p.o.Vault, p.o.Now(), p.o.Env))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("undid the consolidate batch %s: %d files as they were", shortCommit(b.Commit), len(b.Files)), nil
}

func shortCommit(h string) string { return h[:min(len(h), 10)] }

// memoryData is one memory: what show says, its whole history, the file
// as a read shows it, and the edit form.
type memoryData struct {
	*inspect.Detail
	File    string // the whole file, as a read shows it (secrets redacted)
	Log     []history.LogEntry
	LogNote string
	// Edit is the edit form's text: the file, or the refused edit sent
	// back; NoEdit says why there is no form.
	Edit   string
	NoEdit string
}

func (p *Page) memory(w http.ResponseWriter, r *http.Request) {
	p.showMemory(w, r, r.URL.Query().Get("id"), "", "", http.StatusOK)
}

// showMemory draws ref's page; edit, when not empty, is a refused edit to
// offer again with errMsg.
func (p *Page) showMemory(w http.ResponseWriter, r *http.Request, ref, edit, errMsg string, code int) {
	x, err := inspect.Load(p.o.Vault, p.o.Now(), p.o.Env)
	if err != nil {
		p.fail(w, r, "memory", "Memory", err)
		return
	}
	det, err := x.Show(ref)
	if err != nil {
		p.show(w, r, http.StatusNotFound, "memory", "Memory", nil, err.Error())
		return
	}
	m, _ := p.o.Vault.FindMemory(x.Mems, ref)
	raw, err := os.ReadFile(m.Path)
	if err != nil {
		p.fail(w, r, "memory", "Memory", err)
		return
	}
	d := memoryData{Detail: det, File: rules.Show(string(raw)), Edit: edit}
	if d.Edit == "" {
		d.Edit = string(raw)
	}
	if len(rules.Secrets(string(raw))) > 0 {
		// The form would show the secret a read redacts: edit it where
		// the file is (mem edit).
		d.NoEdit, d.Edit = "the file holds a secret, which every read redacts: edit it with mem edit "+m.ID+" on the vault's machine", ""
	}
	if repo, err := history.Open(p.o.Vault, p.o.Env); err != nil {
		d.LogNote = "no history: " + err.Error()
	} else if d.Log, err = repo.Log(m.Rel, 0); err != nil {
		d.LogNote = "no history: " + err.Error()
	} else if len(d.Log) == 0 {
		d.LogNote = "not committed yet"
	}
	p.show(w, r, code, "memory", m.ID, d, errMsg)
}

// edit writes the edited file through writer.Edit, linted exactly as mem
// edit lints it and compare-and-swap on the hash the form was drawn with:
// a refused edit is drawn again with why, and nothing is written.
func (p *Page) edit(w http.ResponseWriter, r *http.Request) {
	ref := r.PostForm.Get("id")
	// A browser sends a textarea's lines with CRLF.
	text := strings.ReplaceAll(r.PostForm.Get("text"), "\r\n", "\n")
	f, err := p.front()
	if err == nil {
		var changed bool
		var m *vault.Memory
		m, changed, err = writer.Edit(p.o.Vault, f, ref, r.PostForm.Get("hash"), []byte(text), lint.Errors, p.o.Now())
		if err == nil {
			msg := m.ID + ": saved"
			if !changed {
				msg = m.ID + ": unchanged"
			}
			p.flash(r, msg)
			http.Redirect(w, r, "/memory?id="+url.QueryEscape(m.ID), http.StatusSeeOther)
			return
		}
	}
	msg := "The edit was not written: " + err.Error()
	if errors.Is(err, vault.ErrConflict) {
		msg = "The edit was not written: the file changed since this page was drawn. Your text is below; compare it with the file as it is now."
	}
	p.showMemory(w, r, ref, text, msg, http.StatusUnprocessableEntity)
}

// healthData is the audit drawn.
type healthData struct {
	Months   chart
	Coverage chart
	Views    chart
	Facts    []fact
	Findings []string
	Healthy  bool
}

type fact struct{ Name, Value string }

func (p *Page) health(w http.ResponseWriter, r *http.Request) {
	d, err := p.healthData()
	if err != nil {
		p.fail(w, r, "health", "Health", err)
		return
	}
	p.show(w, r, http.StatusOK, "health", "Health", d, "")
}

// queueDigest names a review queue as the page drew it: every claim's
// path, id, text and writer, in order.
func queueDigest(pending []inspect.Entry) string {
	b, _ := json.Marshal(pending)
	return hash(string(b))
}
