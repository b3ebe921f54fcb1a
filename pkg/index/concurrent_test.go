package index

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWriterWaitsForTheLock: a second writer waits for the index lock,
// says so once, and finishes after the first lets go.
func TestWriterWaitsForTheLock(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/a.md", memory("fact", "stated", "", "The database is Postgres"))
	mustUpdate(t, v, Options{})
	unlock, err := v.Lock("index")
	if err != nil {
		t.Fatal(err)
	}
	write(t, v, "memory/b.md", memory("fact", "stated", "", "The cache is Redis"))
	msgs := make(chan string, 4)
	done := make(chan Stats)
	go func() {
		st, err := Update(v, Options{Notify: func(m string) { msgs <- m }})
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()
	select {
	case m := <-msgs:
		if !strings.Contains(m, fmt.Sprintf("waiting for another rebuild (pid %d)", os.Getpid())) || !strings.Contains(m, "index.lock") {
			t.Fatalf("message = %q", m)
		}
	case <-done:
		t.Fatal("Update ran while another process held the index lock")
	case <-time.After(5 * time.Second):
		t.Fatal("no waiting message")
	}

	// Meanwhile a search answers from the live index, saying it is stale.
	var smsgs []string
	res, err := Search(context.Background(), v, Query{Text: "redis OR postgres", Notify: func(m string) { smsgs = append(smsgs, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Index.Fresh || res.Index.Changed != 1 || len(res.Hits) != 1 || res.Hits[0].Path != "memory/a.md" {
		t.Fatalf("search during a held lock = %+v", res)
	}
	if len(smsgs) != 1 || !strings.Contains(smsgs[0], "another mem process is updating the index") {
		t.Fatalf("search messages = %q", smsgs)
	}

	unlock()
	st := <-done
	if st.Indexed != 1 {
		t.Fatalf("after the lock: %+v", st)
	}
}

// TestConcurrentRebuildsAndSearches runs full rebuilds, incremental
// updates and searches at once; every search answers with every file.
func TestConcurrentRebuildsAndSearches(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	const files = 600
	for i := range files {
		write(t, v, fmt.Sprintf("memory/m%03d.md", i), memory("fact", "stated", "", fmt.Sprintf("shared fact %d", i)))
	}
	mustUpdate(t, v, Options{})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Update(v, Options{Full: i%2 == 0}); err != nil {
				t.Error(err)
			}
		}()
	}
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := Search(context.Background(), v, Query{Text: "shared", Limit: 1000, NoRefresh: i%2 == 0})
			if err != nil {
				t.Error(err)
				return
			}
			if len(res.Hits) != files {
				t.Errorf("search %d during rebuilds found %d of %d", i, len(res.Hits), files)
			}
		}()
	}
	wg.Wait()
	if got := paths(t, v, Query{Text: "shared", Limit: 1000}); len(got) != files {
		t.Fatalf("after: %d hits", len(got))
	}
}
