package main

import (
	"context"
	"log/slog"

	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/serve"
)

// newPage is mem serve's review page: what is done there is the person's
// (the vault's git identity, as mem accept records it), and its search
// answers from the daemon's warm index.
func newPage(d *watcher, tls bool, logger *slog.Logger) *serve.Page {
	return serve.NewPage(serve.PageOptions{Vault: d.v, Now: now, Env: historyEnv(), TLS: tls, Logger: logger,
		Person: func() (string, error) {
			f, err := personFront(d.v)
			return f.Person, err
		},
		Search: d.pageSearch})
}

// pageSearch answers the page's search as the daemon answers mem search:
// one request at a time with the daemon's other work, from the index it
// holds while that is up to date.
func (d *watcher) pageSearch(ctx context.Context, q index.Query) (index.Result, error) {
	d.work.Lock()
	defer d.work.Unlock()
	d.served()
	q.Held = d.reader
	return index.Search(ctx, d.v, q)
}
