package main

import (
	"context"
	"log/slog"

	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/serve"
	"github.com/mem-md/mem/pkg/vault"
)

// newPage is mem serve's review page: what is done there is the person's
// (the vault's git identity, as mem accept records it), and its search
// answers from the daemon's warm index.
func newPage(v *vault.Vault, d *daemon.Daemon, tls bool, logger *slog.Logger) *serve.Page {
	return serve.NewPage(serve.PageOptions{Vault: v, Now: now, Env: historyEnv(), TLS: tls, Logger: logger,
		Person: func() (string, error) {
			f, err := personFront(context.Background(), v)
			return f.Person, err
		},
		Search: d.Search})
}
