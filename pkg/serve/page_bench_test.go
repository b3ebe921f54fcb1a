package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// BenchmarkSessionView draws the session view (GET /?project=…) in mem
// serve: the daemon holds the vault's scan while no file changes
// (vault.Options.HeldScan), so a view of an unchanged vault is served from
// the page's cache. The vault is $MEM_BENCH_VAULT (mem-bench gen -n 50000),
// else a generated 1,000-file one.
func BenchmarkSessionView(b *testing.B) {
	benchSessionView(b, true)
}

// BenchmarkSessionViewCold is the first view after a change: the vault
// scanned, loaded and rendered with every drop explained.
func BenchmarkSessionViewCold(b *testing.B) {
	benchSessionView(b, false)
}

func benchSessionView(b *testing.B, warm bool) {
	v := benchgen.BenchVault(b, 1000)
	// The files were written a moment ago: count them settled, as they
	// are in a vault a daemon watches.
	v.RacyWindow = vaulttest.NoRacyWindow
	if warm {
		var once sync.Once
		var held *vault.Snapshot
		var heldErr error
		v.HeldScan = func(_ *vault.Vault, scan func() (*vault.Snapshot, error)) (*vault.Snapshot, error) {
			once.Do(func() { held, heldErr = scan() })
			return held, heldErr
		}
	}
	mems, err := v.Load(vault.LoadOptions{}) // the parse cache, as a running daemon has it
	if err != nil {
		b.Fatal(err)
	}
	path := "/"
	if ps := v.Projects(mems); len(ps) > 0 {
		path += "?project=" + ps[0].ID
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	var p *Page
	var cookie *http.Cookie
	open := func() {
		p = NewPage(PageOptions{Vault: v, Now: func() time.Time { return now }, Person: func() (string, error) { return "human:bench", nil }})
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p.LoginLink(""), nil))
		cookie = rec.Result().Cookies()[0]
	}
	view := func() {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.AddCookie(cookie)
		w := httptest.NewRecorder()
		p.ServeHTTP(w, req)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "Not rendered, and why") {
			b.Fatalf("GET %s: %d\n%s", path, w.Code, w.Body.String())
		}
	}
	open()
	if warm {
		view() // the first view fills the cache
	}
	b.ReportAllocs()
	for b.Loop() {
		if !warm {
			b.StopTimer()
			open()
			b.StartTimer()
		}
		view()
	}
}
