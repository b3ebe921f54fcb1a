// Package browser drives mem serve's review page in a real browser
// (Debian's chromium through chromedp), the way its owner meets it: the
// login link mem serve prints, search, an accept, a consolidation applied
// and undone, an edit lint refuses, payloads that must run nothing, and
// every page with the keyboard alone, titled and with every control named. MEM_BROWSER=1 runs it (.ci/run does); without, it skips.
// MEM_UPDATE_SCREENSHOTS=1 also writes docs/serve-*.png at 1280×800.
package browser

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mem-md/mem/internal/vaulttest"
)

// payloads is a memory of spec §8's payloads: had the page run any of
// them, window.pwned would be set and the title changed.
const payloads = `Payloads <script>window.pwned=1;document.title='pwned'</script> <img src=x onerror="window.pwned=1;document.title='pwned'"> [x](javascript:window.pwned=1)`

var loginLink = regexp.MustCompile(`mem serve: the review page: open (http://\S+/login\?code=[0-9a-f]+)`)

func TestReviewPageInBrowser(t *testing.T) {
	if os.Getenv("MEM_BROWSER") == "" {
		t.Skip("the browser test runs with MEM_BROWSER=1 and chromium installed (apt-get install chromium); .ci/run runs it")
	}
	chromium := os.Getenv("MEM_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("MEM_BROWSER=1 but no browser at %s (apt-get install chromium, or set MEM_CHROMIUM): %v", chromium, err)
	}
	// Built before GitEnv moves HOME: go keeps its caches under it.
	bin := filepath.Join(t.TempDir(), "mem")
	if err := vaulttest.BuildMem(bin); err != nil {
		t.Fatal(err)
	}
	vaulttest.GitEnv(t)
	// The example vault, committed, with an owner whose accepts are reviews.
	dir := filepath.Join(t.TempDir(), "vault")
	vaulttest.Copy(t, "../../examples/vault", dir)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "the example vault"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	link := serve(t, bin, dir)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 800),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelTime()
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		t.Log(what)
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("read %s: %v", sel, err)
		}
		return s
	}
	eval := func(expr string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		return s
	}
	visible := func(sel string) chromedp.Action[chromedp.Void] { return chromedp.WaitVisible(chromedp.CSS(sel)) }
	// submit marks the page drawn now, runs act (a click, a key) and waits
	// for the next page, which has no mark, to show sel.
	submit := func(what string, act chromedp.Action[chromedp.Void], sel string) {
		t.Helper()
		do(what, chromedp.Evaluate[chromedp.Void](`document.body.setAttribute("data-old", "")`), act,
			chromedp.WaitVisible(chromedp.CSS("body:not([data-old]) "+sel)))
	}
	base := strings.SplitN(link, "/login", 2)[0]
	shoot := func(name string) {
		t.Helper()
		if os.Getenv("MEM_UPDATE_SCREENSHOTS") == "" {
			return
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "serve-"+name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The login link: the session view, logged in.
	do("log in", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(link), visible("pre.doc"))
	if title := eval(`document.title`); !strings.HasPrefix(title, "Session view") {
		t.Fatalf("after the login link, the title is %q", title)
	}
	do("a project", chromedp.SetValue(chromedp.ID("project"), "proj_webshop"))
	submit("show it", chromedp.Submit(chromedp.ID("project")), "pre.doc")
	if got := text("main"); !strings.Contains(got, "Session: proj_webshop") || !strings.Contains(got, "Not rendered, and why") {
		t.Fatalf("the session view of proj_webshop:\n%s", got)
	}
	shoot("session")

	// A second use of the link is refused.
	do("the link again", chromedp.Navigate(link))
	if body := text("body"); !strings.Contains(body, "401") {
		t.Errorf("the login link worked twice: %q", body)
	}

	// Search, typed as a person types it.
	do("search", chromedp.Navigate(base+"/search"), chromedp.SendKeys(chromedp.ID("q"), "deploy\n"), visible("ol.hits"))
	if got := text("ol.hits"); !strings.Contains(got, "memory/deploy-command.md") || !strings.Contains(got, "current") {
		t.Errorf("search hits for deploy:\n%s", got)
	}
	shoot("search")

	// Accept the import: a person's review, with the owner's git identity.
	const imp = "imports/chatgpt/2024-03-09-trip-planning"
	// The other pages as the example vault has them, before anything is
	// changed: the screenshots of docs/serve.md.
	do("memory", chromedp.Navigate(base+"/memory?id=memory/deploy-command"), visible("#text"))
	shoot("memory")
	do("health", chromedp.Navigate(base+"/health"), visible("figure"))
	shoot("health")
	do("review", chromedp.Navigate(base+"/review"), visible("h1"))
	shoot("review")
	submit("accept the import", chromedp.Click(chromedp.CSS(`button[aria-label="Accept `+imp+`"]`)), ".flash")
	// The person is the commit author git would record (GitEnv's).
	if got := text(".flash"); !strings.Contains(got, imp+": accepted, reviewed by human:test@example.com") {
		t.Errorf("after accepting the import the page says %q", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, imp+".md")); !strings.Contains(string(data), "human:test@example.com") {
		t.Errorf("the accepted import records no review by the person:\n%s", data)
	}

	// Apply a consolidation (retire the stale claim), then undo it: the
	// file is back byte for byte.
	stale := filepath.Join(dir, "memory/flaky-checkout-test.md")
	before, err := os.ReadFile(stale)
	if err != nil {
		t.Fatal(err)
	}
	submit("apply", chromedp.Click(chromedp.CSS(`button[aria-label="Apply: retire memory/flaky-checkout-test"]`)), ".flash")
	if got := text(".flash"); !strings.Contains(got, "memory/flaky-checkout-test.md") || !strings.Contains(got, "undo puts them back") {
		t.Errorf("after apply the page says %q", got)
	}
	if after, _ := os.ReadFile(stale); string(after) == string(before) {
		t.Error("apply left the stale claim as it was")
	}
	submit("undo", chromedp.Click(chromedp.CSS(`form[action="/consolidate/undo"] button`)), ".flash")
	if got := text(".flash"); !strings.Contains(got, "undid the consolidate batch") {
		t.Errorf("after undo the page says %q", got)
	}
	if after, _ := os.ReadFile(stale); string(after) != string(before) {
		t.Errorf("undo did not put the file back:\n%s", after)
	}

	// An edit with a bad value: the lint message, and nothing written.
	file := filepath.Join(dir, "memory/deploy-command.md")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	do("memory", chromedp.Navigate(base+"/memory?id=memory/deploy-command"), visible("#text"))
	bad := strings.Replace(string(orig), "provenance: observed", "provenance: hearsay", 1)
	do("bad value", chromedp.SetValue(chromedp.ID("text"), bad))
	submit("save", chromedp.Click(chromedp.CSS(`form[action="/memory/edit"] button`)), ".error")
	if got := text(".error"); !strings.Contains(got, "The edit was not written") || !strings.Contains(got, "hearsay") {
		t.Errorf("after a bad edit the page says %q", got)
	}
	if now, _ := os.ReadFile(file); string(now) != string(orig) {
		t.Errorf("a refused edit was written:\n%s", now)
	}

	// The payloads show as text and run nothing, on every page showing them.
	if err := os.WriteFile(filepath.Join(dir, "memory/payloads.md"), []byte("---\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-03\n---\n"+payloads+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/search?q=payloads", "/memory?id=memory/payloads", "/", "/review", "/health"} {
		do("payloads on "+path, chromedp.Navigate(base+path), visible("h1"),
			chromedp.Sleep(200*time.Millisecond)) // an onerror would have fired by now
		if pwned, title := eval(`String(window.pwned)`), eval(`document.title`); pwned != "undefined" || strings.Contains(title, "pwned") {
			t.Errorf("%s ran a memory's script (window.pwned %s, title %q)", path, pwned, title)
		}
	}
	do("payloads as text", chromedp.Navigate(base+"/memory?id=memory/payloads"), visible("pre.doc"))
	if got := text("pre.doc"); !strings.Contains(got, "<script>window.pwned=1") || !strings.Contains(got, "onerror=") {
		t.Errorf("the payloads do not show as text: %q", got)
	}

	// Every page, with the keyboard alone: a title, a name for every
	// control, every control reached by Tab in document order and back by
	// Shift-Tab, and the page's main action done by Tab, arrows, typing,
	// Enter and Space.
	tab := chromedp.KeyEvent(kb.Tab)
	shiftTab := chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(kb.ModifierShift))
	// tabTo presses Tab until the focused element matches the CSS selector sel.
	tabTo := func(path, sel string) {
		t.Helper()
		for range 300 {
			if err := chromedp.Do(ctx, tab); err != nil {
				t.Fatalf("tab on %s: %v", path, err)
			}
			if eval(`String(document.activeElement.matches(`+strconv.Quote(sel)+`))`) == "true" {
				return
			}
		}
		t.Fatalf("300 Tabs on %s never reached %s", path, sel)
	}
	keyboard := func(path string) {
		t.Helper()
		do("keyboard on "+path, chromedp.Navigate(base+path), visible("h1"))
		if title := eval(`document.title`); !regexp.MustCompile(`^\S.* · mem$`).MatchString(title) {
			t.Errorf("%s: the title is %q, want the page's name · mem", path, title)
		}
		// A field's name: aria-label, a <label for> its id, or a label
		// around it; a button's, a link's or a focusable region's: its
		// aria-label or text.
		unnamed := eval(`(function(){var bad=[];
document.querySelectorAll("input:not([type=hidden]),select,textarea").forEach(function(e){
  var n=(e.getAttribute("aria-label")||"").trim();
  if(!n&&e.id){var l=document.querySelector('label[for="'+CSS.escape(e.id)+'"]');if(l)n=l.textContent.trim()}
  if(!n){var w=e.closest("label");if(w)n=w.textContent.trim()}
  if(!n)bad.push(e.outerHTML.slice(0,100))});
document.querySelectorAll('button,a[href],[tabindex]:not([tabindex="-1"])').forEach(function(e){
  if(!(e.getAttribute("aria-label")||e.textContent).trim())bad.push(e.outerHTML.slice(0,100))});
return bad.join("\n")})()`)
		if unnamed != "" {
			t.Errorf("%s: controls without an accessible name:\n%s", path, unnamed)
		}
		// Every control a person can reach, in document order, numbered.
		n, err := strconv.Atoi(eval(`(function(){var i=0;
document.querySelectorAll('a[href],button,input:not([type=hidden]),select,textarea,[tabindex]:not([tabindex="-1"])').forEach(function(e){
  if(!e.disabled&&e.getClientRects().length)e.setAttribute("data-kb",i++)});
return String(i)})()`))
		if err != nil || n < 5 {
			t.Fatalf("%s: %d controls (%v): not even the skip link and the four pages", path, n, err)
		}
		fields := eval(`String(document.querySelectorAll("input:not([type=hidden]),select,textarea").length)`)
		focused := func() string {
			return eval(`(function(){var e=document.activeElement;return e&&e.hasAttribute("data-kb")?e.getAttribute("data-kb"):(e?e.tagName:"none")})()`)
		}
		// press moves focus from control from to control want with key: a
		// date field takes one Tab per part (month, day, year) first.
		press := func(name string, key chromedp.Action[chromedp.Void], from, want int) {
			t.Helper()
			got := ""
			for range 4 {
				if err := chromedp.Do(ctx, key); err != nil {
					t.Fatal(err)
				}
				got = focused()
				if got != strconv.Itoa(from) || eval(`document.activeElement.type`) != "date" {
					break
				}
			}
			if got != strconv.Itoa(want) {
				t.Fatalf("%s: from control %d, %s focuses %s, want control %d of %d", path, from, name, got, want, n)
			}
		}
		for i := range n {
			press("Tab", tab, i-1, i)
		}
		for i := n - 2; i >= 0; i-- {
			press("Shift-Tab", shiftTab, i+1, i)
		}
		if first := eval(`document.activeElement.textContent`); first != "Skip to the content" {
			t.Errorf("%s: the first control is %q, want the skip link", path, first)
		}
		t.Logf("%s: %d controls reached by Tab in order and by Shift-Tab back, %s fields, each named", path, n, fields)
	}

	// The session view: a project chosen with the arrow keys, shown by Enter.
	keyboard("/")
	tabTo("/", "#project")
	for i := 0; i < 50 && eval(`document.activeElement.value`) != "proj_webshop"; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
			t.Fatal(err)
		}
	}
	if got := eval(`document.activeElement.value`); got != "proj_webshop" {
		t.Fatalf("the arrow keys on the project list reached %q, not proj_webshop", got)
	}
	tabTo("/", `form[action="/"] button`)
	submit("enter on Show", chromedp.KeyEvent(kb.Enter), "pre.doc")
	if got := text("main"); !strings.Contains(got, "Session: proj_webshop") || !strings.Contains(got, "Not rendered, and why") {
		t.Errorf("the session view chosen by keyboard:\n%s", got)
	}
	keyboard("/?project=proj_webshop")

	// Search: a query typed and sent by Enter shows hits; Enter on a hit
	// opens the memory.
	keyboard("/search")
	tabTo("/search", "#q")
	submit("type and enter", chromedp.KeyEvent("deploy\n"), "ol.hits")
	if got := text("ol.hits"); !strings.Contains(got, "memory/deploy-command.md") {
		t.Errorf("search by keyboard for deploy:\n%s", got)
	}
	keyboard("/search?q=deploy")
	tabTo("/search?q=deploy", `ol.hits a[href$="deploy-command"]`)
	submit("enter on a hit", chromedp.KeyEvent(kb.Enter), "#text")
	if got := text("h1"); got != "memory/deploy-command" {
		t.Errorf("Enter on the hit opened %q", got)
	}

	// A memory: retired with a reason typed and the button pressed by Space.
	const retired = "memory/payloads"
	keyboard("/memory?id=" + retired)
	tabTo("/memory?id="+retired, "#reason")
	do("type a reason", chromedp.KeyEvent("a test of the keyboard"))
	tabTo("/memory?id="+retired, `form[action="/review/retire"] button`)
	submit("space on Retire", chromedp.KeyEvent(" "), ".flash")
	if got := text(".flash"); !strings.Contains(got, retired+": retired") {
		t.Errorf("Space on Retire: the page says %q", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, retired+".md")); !strings.Contains(string(data), "a test of the keyboard") {
		t.Errorf("the retire by keyboard wrote no reason:\n%s", data)
	}

	// Review: Enter on a focused form's button submits it.
	keyboard("/review")
	tabTo("/review", "form button")
	reached := eval(`document.activeElement.form.getAttribute("action")`)
	submit("enter", chromedp.KeyEvent(kb.Enter), "h1")
	if got := text("main"); !strings.Contains(got, "Not done") && !strings.Contains(got, "accepted") && !strings.Contains(got, "rejected") && !strings.Contains(got, "undid") && !strings.Contains(got, "put back") {
		t.Errorf("Enter on the button of %s did not submit it: %q", reached, got)
	}

	// Health: nothing to submit; Enter on a link of the page list goes there.
	keyboard("/health")
	tabTo("/health", `nav a[href="/review"]`)
	submit("enter on Review", chromedp.KeyEvent(kb.Enter), "h1")
	if got := eval(`document.title`); !strings.HasPrefix(got, "Review") {
		t.Errorf("Enter on the Review link opened %q", got)
	}
}

// serve starts mem serve on a free loopback port and returns the login
// link it prints.
func serve(t *testing.T, bin, dir string) string {
	t.Helper()
	cmd := exec.Command(bin, "--vault", dir, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := loginLink.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case link := <-found:
		return link
	case <-time.After(time.Minute):
		t.Fatal("mem serve printed no login link")
		return ""
	}
}
