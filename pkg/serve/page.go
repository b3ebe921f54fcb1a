package serve

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// The page's limits: a login link is good once and for LoginTTL; a
// session lasts SessionTTL from the login.
const (
	LoginTTL   = 10 * time.Minute
	SessionTTL = 12 * time.Hour
	cookieName = "mem_session"
)

// Content-Security-Policy of every page: nothing runs (no script-src at
// all), styles and images come only from the page itself, forms post only
// to it and no other site may frame it.
const pageCSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

//go:embed templates/*.html assets/*
var pageFiles embed.FS

// PageOptions is what the review page needs.
type PageOptions struct {
	Vault *vault.Vault
	Now   func() time.Time
	Env   history.Env // what git runs with (history, commits of a consolidate batch)
	// Person is the human: actor an action on the page is recorded as
	// (the vault's git identity, as mem accept records it).
	Person func() (string, error)
	// Search answers the search page as mem search does; nil runs
	// index.Search (mem serve passes one that uses the daemon's warm index).
	Search func(context.Context, index.Query) (index.Result, error)
	// TLS: the server speaks HTTPS, so the cookie is Secure.
	TLS    bool
	Logger *slog.Logger
}

// Page is the review page for the vault's owner (spec §12): logged into
// only through a one-time link printed on the owner's terminal.
type Page struct {
	o     PageOptions
	tmpl  map[string]*template.Template
	mux   *http.ServeMux
	mu    sync.Mutex
	links map[string]time.Time // sha256 of an unused login code → when it expires
	// sessions by the sha256 of their cookie: the cookie itself is never kept.
	sessions map[string]*session
	cache    sessionCache
}

// session is one logged-in browser.
type session struct {
	csrf    string
	expires time.Time
	flash   string // the outcome of the last action, shown once
}

// NewPage builds the page; templates that do not parse are a bug, so it
// panics on them (they are embedded, and every test parses them).
func NewPage(o PageOptions) *Page {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Search == nil {
		v := o.Vault
		o.Search = func(ctx context.Context, q index.Query) (index.Result, error) { return index.Search(ctx, v, q) }
	}
	p := &Page{o: o, links: map[string]time.Time{}, sessions: map[string]*session{}, tmpl: map[string]*template.Template{}}
	for _, name := range []string{"session", "search", "review", "memory", "health"} {
		p.tmpl[name] = template.Must(template.New("layout.html").Funcs(pageFuncs).ParseFS(pageFiles, "templates/layout.html", "templates/"+name+".html"))
	}
	p.routes()
	return p
}

// LoginLink makes a new one-time login code and returns the link for
// base (scheme://host:port).
func (p *Page) LoginLink(base string) string {
	code := randomHex()
	p.mu.Lock()
	p.links[hash(code)] = p.o.Now().Add(LoginTTL)
	p.mu.Unlock()
	return base + "/login?code=" + code
}

func randomHex() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// login spends a login code: a good one sets the session cookie and goes
// to the session view; any other answer is 401 and says nothing more.
func (p *Page) login(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	now := p.o.Now()
	p.mu.Lock()
	exp, ok := p.links[hash(code)]
	delete(p.links, hash(code)) // used once, good or late
	for k, e := range p.links {
		if now.After(e) {
			delete(p.links, k)
		}
	}
	var cookie string
	if ok && code != "" && now.Before(exp) {
		cookie = randomHex()
		p.sessions[hash(cookie)] = &session{csrf: randomHex(), expires: now.Add(SessionTTL)}
	}
	p.mu.Unlock()
	if cookie == "" {
		refuse(w, http.StatusUnauthorized, "this login link is used, expired or wrong: restart mem serve for a new one")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: cookie, Path: "/", HttpOnly: true, Secure: p.o.TLS,
		SameSite: http.SameSiteStrictMode, MaxAge: int(SessionTTL / time.Second)})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// session is the request's live session, or nil.
func (p *Page) session(r *http.Request) *session {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.sessions[hash(c.Value)]
	if s != nil && p.o.Now().After(s.expires) {
		delete(p.sessions, hash(c.Value))
		return nil
	}
	return s
}

type sessionKey struct{}

// ServeHTTP answers the page's paths. Host and Origin were checked before
// (Handler); here every path but the login and the stylesheet needs the
// session cookie — a bearer token is an agent's and opens no page — and
// every POST its session's CSRF token.
func (p *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	// same-origin, not no-referrer: under no-referrer a browser sends
	// "Origin: null" with the page's own form posts, which the Origin
	// check refuses; same-origin still sends nothing to another site.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	switch r.URL.Path {
	case "/login":
		p.login(w, r)
		return
	case "/assets/style.css":
		p.mux.ServeHTTP(w, r)
		return
	}
	s := p.session(r)
	if s == nil {
		refuse(w, http.StatusUnauthorized, "log in with the one-time link mem serve printed on its terminal")
		return
	}
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			refuse(w, http.StatusBadRequest, "the form could not be read")
			return
		}
		p.mu.Lock()
		want := s.csrf
		p.mu.Unlock()
		if got := r.PostForm.Get("csrf"); got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
			refuse(w, http.StatusForbidden, "the form's CSRF token is missing or wrong: reload the page and try again")
			return
		}
	}
	p.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, s)))
}

// front is the writer's front for the person logged in.
func (p *Page) front() (writer.Front, error) {
	who, err := p.o.Person()
	return writer.Front{Person: who}, err
}

// flash keeps msg for the next page the session sees.
func (p *Page) flash(r *http.Request, msg string) {
	s := r.Context().Value(sessionKey{}).(*session)
	p.mu.Lock()
	s.flash = msg
	p.mu.Unlock()
}

// page is what every template gets.
type page struct {
	Title string
	Nav   string // which entry of the navigation is this page
	CSRF  string
	Flash string
	Error string
	Data  any
}

// show renders the template name with data, taking the session's flash.
func (p *Page) show(w http.ResponseWriter, r *http.Request, code int, name, title string, data any, errMsg string) {
	s := r.Context().Value(sessionKey{}).(*session)
	p.mu.Lock()
	pg := page{Title: title, Nav: name, CSRF: s.csrf, Flash: s.flash, Error: errMsg, Data: data}
	s.flash = ""
	p.mu.Unlock()
	var b strings.Builder
	if err := p.tmpl[name].Execute(&b, pg); err != nil {
		p.o.Logger.Error("page", "page", name, "error", err)
		refuse(w, http.StatusInternalServerError, "the page could not be drawn (the server's log says why)")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write([]byte(b.String()))
}

// fail answers a read that went wrong: the page, with the error alone.
func (p *Page) fail(w http.ResponseWriter, r *http.Request, name, title string, err error) {
	p.show(w, r, http.StatusUnprocessableEntity, name, title, nil, err.Error())
}

// back redirects to the page a form came from: a relative path of this
// page only (the form's "back" field, else to).
func back(w http.ResponseWriter, r *http.Request, to string) {
	if b := r.PostForm.Get("back"); strings.HasPrefix(b, "/") && !strings.HasPrefix(b, "//") && !strings.Contains(b, `\`) {
		to = b
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

var pageFuncs = template.FuncMap{"join": strings.Join, "cite": cite, "marks": marks}

// cite joins the parts of a citation line that are not empty.
func cite(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// segment is a piece of a search snippet: the index marks each matched
// term **so**; the page draws it as <mark>, the text always escaped.
type segment struct {
	Text string
	Mark bool
}

func marks(snippet string) []segment {
	var out []segment
	for i, part := range strings.Split(snippet, "**") {
		if part != "" {
			out = append(out, segment{part, i%2 == 1})
		}
	}
	return out
}
