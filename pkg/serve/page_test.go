package serve

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// xssText is a memory holding the payloads of spec §8: every one must show
// as text on every page.
const xssText = `Payloads <script>document.title='pwned'</script> <img src=x onerror="document.title='pwned'"> [x](javascript:alert(1))`

// pageServer serves v with the page as mem serve does and returns the
// server's URL and the page (for login links). now is the page's clock.
func pageServer(t *testing.T, v *vault.Vault, now *time.Time) (string, *Page) {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	page := NewPage(PageOptions{Vault: v, Now: func() time.Time { return *now }, Logger: logger,
		Person: func() (string, error) { return "human:Dana", nil }})
	h := Handler(Options{Addr: "127.0.0.1:7437", Tokens: NewTokens(v), Logger: logger, Page: page})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL, page
}

// pageVault is newVault with the payloads memory.
func pageVault(t testing.TB) *vault.Vault {
	v := newVault(t)
	vaulttest.Write(t, v.Root, "memory/xss.md", "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-03\n---\n"+xssText+"\n")
	return v
}

// browser is a client that keeps cookies and follows no redirect.
func browser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// login spends a fresh login link with c.
func login(t *testing.T, c *http.Client, base string, p *Page) {
	t.Helper()
	resp, err := c.Get(p.LoginLink(base))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("login: %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	ck := resp.Cookies()
	if len(ck) != 1 || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode || ck[0].Path != "/" {
		t.Fatalf("login cookie %+v: want one HttpOnly, SameSite=Strict cookie for /", ck)
	}
}

func get(t *testing.T, c *http.Client, u string, header map[string]string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	setHeader(req, header)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data), resp.Header
}

// setHeader sets header on req; "Host" is the request's Host, which Go
// sends from req.Host and never from the header map.
func setHeader(req *http.Request, header map[string]string) {
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
}

func postForm(t *testing.T, c *http.Client, u string, form url.Values, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	setHeader(req, header)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// csrf is the CSRF token of the session c is logged into.
func csrf(t *testing.T, c *http.Client, base string) string {
	t.Helper()
	_, body, _ := get(t, c, base+"/review", nil)
	m := csrfField.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF token on /review:\n%s", body)
	}
	return m[1]
}

// pagePaths are every page, for the checks that hold on each.
var pagePaths = []string{"/", "/?dir=/", "/search?q=staging", "/search?q=payloads", "/review", "/memory?id=memory/db", "/memory?id=memory/xss", "/health"}

func TestPageNeedsLogin(t *testing.T) {
	v := pageVault(t)
	now := testNow
	base, p := pageServer(t, v, &now)
	// An agent's token (good on /mcp), a read-only one, a revoked one and
	// a made-up one: none opens a page, whether as a bearer token or as
	// the session cookie.
	token := addToken(t, v, "agent", false)
	reader := addToken(t, v, "reader", true)
	revoked := addToken(t, v, "gone", false)
	if err := RevokeToken(context.Background(), v, "gone"); err != nil {
		t.Fatal(err)
	}
	c := browser(t)
	none := []map[string]string{nil, {"Cookie": cookieName + "=" + strings.Repeat("a", 64)}}
	for _, secret := range []string{token, reader, revoked, strings.Repeat("b", 64)} {
		none = append(none, map[string]string{"Authorization": "Bearer " + secret}, map[string]string{"Cookie": cookieName + "=" + secret})
	}
	for _, path := range append(pagePaths, "/nope") {
		for _, h := range none {
			code, body, _ := get(t, c, base+path, h)
			if code != http.StatusUnauthorized || strings.Contains(body, "staging") {
				t.Errorf("GET %s with %v: %d %q, want 401 saying nothing of the vault", path, h, code, body)
			}
		}
	}
	guess := filepath.Join(v.Root, "memory/guess.md")
	before, _ := os.ReadFile(guess)
	for _, h := range none {
		if code, _ := postForm(t, c, base+"/review/accept", url.Values{"id": {"memory/guess"}}, h); code != http.StatusUnauthorized {
			t.Errorf("POST with %v and no session: %d, want 401", h, code)
		}
	}
	if after, _ := os.ReadFile(guess); string(after) != string(before) {
		t.Errorf("a POST without a session wrote the file:\n%s", after)
	}

	// A link is good once, and only for LoginTTL.
	link := p.LoginLink(base)
	login := func(link string) int {
		code, _, _ := get(t, browser(t), link, nil)
		return code
	}
	if code := login(link); code != http.StatusSeeOther {
		t.Fatalf("first use of the link: %d", code)
	}
	if code := login(link); code != http.StatusUnauthorized {
		t.Errorf("second use of the link: %d, want 401", code)
	}
	late := p.LoginLink(base)
	now = now.Add(LoginTTL + time.Second)
	if code := login(late); code != http.StatusUnauthorized {
		t.Errorf("a link past LoginTTL: %d, want 401", code)
	}
	if code := login(base + "/login?code=" + strings.Repeat("0", 64)); code != http.StatusUnauthorized {
		t.Errorf("a made-up link: %d, want 401", code)
	}
	// A session ends after SessionTTL.
	c = browser(t)
	fresh := p.LoginLink(base)
	if code, _, _ := get(t, c, fresh, nil); code != http.StatusSeeOther {
		t.Fatal(code)
	}
	if code, _, _ := get(t, c, base+"/", nil); code != http.StatusOK {
		t.Fatalf("logged in: %d", code)
	}
	now = now.Add(SessionTTL + time.Second)
	if code, _, _ := get(t, c, base+"/", nil); code != http.StatusUnauthorized {
		t.Errorf("a session past SessionTTL: %d, want 401", code)
	}
}

func TestPagesEscapeMemoryText(t *testing.T) {
	v := pageVault(t)
	now := testNow
	base, p := pageServer(t, v, &now)
	c := browser(t)
	login(t, c, base, p)
	tag := regexp.MustCompile(`(?i)<script|<img|<[a-z][^>]*\son\w+=|href="javascript:`)
	sawPayload := false
	for _, path := range pagePaths {
		code, body, h := get(t, c, base+path, nil)
		if code != http.StatusOK {
			t.Errorf("GET %s: %d\n%s", path, code, body)
			continue
		}
		if loc := tag.FindStringIndex(body); loc != nil {
			t.Errorf("GET %s: markup from a memory in the page: %q", path, body[max(loc[0]-80, 0):min(loc[1]+80, len(body))])
		}
		sawPayload = sawPayload || strings.Contains(body, "&lt;script&gt;document.title=")
		if got := h.Get("Content-Security-Policy"); !strings.Contains(got, "default-src 'none'") || strings.Contains(got, "script-src") {
			t.Errorf("GET %s: Content-Security-Policy %q", path, got)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
			t.Errorf("GET %s: headers %v", path, h)
		}
		if !strings.Contains(body, "<title>") || !strings.Contains(body, `href="#main"`) {
			t.Errorf("GET %s: no title or no skip link", path)
		}
	}
	if !sawPayload {
		t.Error("no page showed the payloads as text")
	}
}

func TestPageCSRFAndOrigin(t *testing.T) {
	v := pageVault(t)
	now := testNow
	base, p := pageServer(t, v, &now)
	c := browser(t)
	login(t, c, base, p)
	path := filepath.Join(v.Root, "memory/guess.md")
	before, _ := os.ReadFile(path)
	unchanged := func(what string) {
		t.Helper()
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Fatalf("%s: the file was written:\n%s", what, after)
		}
	}
	form := url.Values{"id": {"memory/guess"}}
	if code, _ := postForm(t, c, base+"/review/accept", form, nil); code != http.StatusForbidden {
		t.Errorf("accept without a CSRF token: %d, want 403", code)
	}
	unchanged("no CSRF token")
	form.Set("csrf", strings.Repeat("0", 64))
	if code, _ := postForm(t, c, base+"/review/accept", form, nil); code != http.StatusForbidden {
		t.Errorf("accept with a wrong CSRF token: %d, want 403", code)
	}
	unchanged("a wrong CSRF token")
	form.Set("csrf", csrf(t, c, base))
	if code, _ := postForm(t, c, base+"/review/accept", form, map[string]string{"Origin": "http://evil.example"}); code != http.StatusForbidden {
		t.Errorf("a cross-origin accept: %d, want 403", code)
	}
	unchanged("a cross-origin post")
	// A foreign Host (DNS rebinding: evil.example resolved to 127.0.0.1)
	// is refused before the session is looked at, even with the owner's
	// cookie and a good CSRF token, on a write and on every page.
	foreign := map[string]string{"Host": "evil.example"}
	if code, _ := postForm(t, c, base+"/review/accept", form, foreign); code != http.StatusForbidden {
		t.Errorf("an accept with Host evil.example: %d, want 403", code)
	}
	unchanged("a foreign Host")
	for _, path := range pagePaths {
		for _, h := range []map[string]string{foreign, {"Host": "evil.example:" + strings.Split(base, ":")[2]}} {
			code, body, _ := get(t, c, base+path, h)
			if code != http.StatusForbidden || strings.Contains(body, "staging") {
				t.Errorf("GET %s with %v: %d %q, want 403 saying nothing of the vault", path, h, code, body)
			}
		}
	}
	// A login link reached under a foreign Host is refused and not spent.
	link := p.LoginLink(base)
	if code, _, _ := get(t, browser(t), link, foreign); code != http.StatusForbidden {
		t.Errorf("the login link with Host evil.example: %d, want 403", code)
	}
	if code, _, _ := get(t, browser(t), link, nil); code != http.StatusSeeOther {
		t.Errorf("the login link after a refused foreign-Host use: %d, want 303 (unspent)", code)
	}
	if code, _ := postForm(t, c, base+"/review/accept", form, map[string]string{"Origin": base}); code != http.StatusSeeOther {
		t.Fatalf("accept with the token from the page's own origin: %d, want 303", code)
	}
	after, _ := os.ReadFile(path)
	if !strings.Contains(string(after), "human:Dana") {
		t.Errorf("the accept is not recorded as the person's review:\n%s", after)
	}
	_, body, _ := get(t, c, base+"/review", nil)
	if !strings.Contains(body, "memory/guess: accepted, reviewed by human:Dana") {
		t.Errorf("the review page does not say what was done:\n%s", body)
	}
}

func TestPageEditIsLinted(t *testing.T) {
	v := pageVault(t)
	now := testNow
	base, p := pageServer(t, v, &now)
	c := browser(t)
	login(t, c, base, p)
	path := filepath.Join(v.Root, "memory/db.md")
	before, _ := os.ReadFile(path)
	token := csrf(t, c, base)
	bad := strings.Replace(string(before), "provenance: stated", "provenance: hearsay", 1)
	code, body := postForm(t, c, base+"/memory/edit", url.Values{"csrf": {token}, "id": {"memory/db"}, "hash": {vault.Hash(before)}, "text": {strings.ReplaceAll(bad, "\n", "\r\n")}}, nil)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "The edit was not written") || !strings.Contains(body, "hearsay") {
		t.Errorf("a bad provenance: %d, want 422 with the lint message and the text sent back\n%s", code, body)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatalf("a refused edit was written:\n%s", after)
	}
	good := strings.Replace(string(before), "db-7.internal", "db-8.internal", 1)
	if code, body := postForm(t, c, base+"/memory/edit", url.Values{"csrf": {token}, "id": {"memory/db"}, "hash": {"0000"}, "text": {good}}, nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "changed since this page was drawn") {
		t.Errorf("an edit of a stale hash: %d, want 422 saying the file changed\n%s", code, body)
	}
	if code, _ := postForm(t, c, base+"/memory/edit", url.Values{"csrf": {token}, "id": {"memory/db"}, "hash": {vault.Hash(before)}, "text": {good}}, nil); code != http.StatusSeeOther {
		t.Fatalf("a good edit: %d, want 303", code)
	}
	if after, _ := os.ReadFile(path); !strings.Contains(string(after), "db-8.internal") {
		t.Errorf("the good edit is not the file:\n%s", after)
	}
}

func TestPageReviewActions(t *testing.T) {
	v := pageVault(t)
	vaulttest.Write(t, v.Root, "memory/ci.md", "---\ntype: fact\nprovenance: observed\nvalid_at: 2026-01-02\nstale_after: 2026-06-01\n---\nCI runs on every push\n")
	now := testNow
	base, p := pageServer(t, v, &now)
	c := browser(t)
	login(t, c, base, p)
	token := csrf(t, c, base)
	act := func(path string, form url.Values) string {
		t.Helper()
		form.Set("csrf", token)
		if code, body := postForm(t, c, base+path, form, nil); code != http.StatusSeeOther {
			t.Fatalf("POST %s: %d\n%s", path, code, body)
		}
		_, body, _ := get(t, c, base+"/review", nil)
		m := regexp.MustCompile(`<p class="flash" role="status">([^<]*)</p>`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("POST %s: the review page says nothing of it", path)
		}
		return m[1]
	}
	read := func(rel string) string {
		data, _ := os.ReadFile(filepath.Join(v.Root, rel))
		return string(data)
	}
	guess := read("memory/guess.md")
	_, page, _ := get(t, c, base+"/review", nil)
	queue := regexp.MustCompile(`name="queue" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	if queue == nil {
		t.Fatalf("the review page's accept-all form names no queue:\n%s", page)
	}
	if got := act("/review/accept-all", url.Values{"queue": {"0"}}); !strings.HasPrefix(got, "Not done: the queue changed since this page was drawn") || read("memory/guess.md") != guess {
		t.Errorf("accept all of a queue the page did not draw: %q, and the file:\n%s", got, read("memory/guess.md"))
	}
	if got := act("/review/accept-all", url.Values{"queue": {queue[1]}}); got != "1 claims accepted (undo puts them back)" {
		t.Errorf("accept all: %q", got)
	}
	if !strings.Contains(read("memory/guess.md"), "human:Dana") {
		t.Errorf("accept all did not record the person:\n%s", read("memory/guess.md"))
	}
	if got := act("/review/undo", url.Values{}); !strings.HasPrefix(got, "1 claims of the accept-all") {
		t.Errorf("undo: %q", got)
	}
	if read("memory/guess.md") != guess {
		t.Errorf("undo did not put the file back:\n%s", read("memory/guess.md"))
	}
	if got := act("/review/reject", url.Values{"id": {"memory/guess"}}); got != "memory/guess: rejected (status: deprecated)" {
		t.Errorf("reject: %q", got)
	}
	if got := act("/review/redate", url.Values{"id": {"memory/ci"}, "stale_after": {"2026-01-01"}}); !strings.HasPrefix(got, "Not done: stale_after: give a date after today") {
		t.Errorf("re-date into the past: %q", got)
	}
	if got := act("/review/redate", url.Values{"id": {"memory/ci"}, "stale_after": {"2027-03-01"}}); !strings.Contains(got, "memory/ci: stale_after is now 2027-03-01") {
		t.Errorf("re-date: %q", got)
	}
	if !strings.Contains(read("memory/ci.md"), "stale_after: 2027-03-01") {
		t.Errorf("re-date did not write stale_after:\n%s", read("memory/ci.md"))
	}
	_, page, _ = get(t, c, base+"/memory?id=memory/ci", nil)
	if !strings.Contains(page, `<input type="hidden" name="back" value="/memory?id=memory/ci">`) {
		t.Fatalf("the memory page has no retire form:\n%s", page)
	}
	if got := act("/review/retire", url.Values{"id": {"memory/ci"}, "reason": {"moved to GitHub Actions"}}); got != "memory/ci: retired" {
		t.Errorf("retire: %q", got)
	}
	if !strings.Contains(read("memory/ci.md"), "moved to GitHub Actions") {
		t.Errorf("retire did not keep the reason:\n%s", read("memory/ci.md"))
	}
	if got := act("/consolidate/apply", url.Values{"key": {"stale retire memory/nothing"}}); !strings.HasPrefix(got, "Not done: that proposal is no longer made") {
		t.Errorf("apply of a proposal no longer made: %q", got)
	}
}
