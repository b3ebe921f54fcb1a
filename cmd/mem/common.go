package main

import (
	"encoding/json"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// openVault finds and opens the vault named by --vault, $MEM_VAULT or the
// working directory.
func openVault(cmd *cli.Command) (*vault.Vault, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	root, err := vault.Find(cmd.String("vault"), os.Getenv("MEM_VAULT"), cwd)
	if err != nil {
		return nil, err
	}
	return vault.Open(root)
}

// now is the clock every command uses; MEM_NOW pins it for tests and for
// reproducible runs (RFC 3339 or YYYY-MM-DD).
func now() time.Time {
	if s := os.Getenv("MEM_NOW"); s != "" {
		if t, err := parseTimeFlag(s); err == nil {
			return t
		}
	}
	return time.Now().UTC()
}

// writeJSON prints v as indented JSON on w.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// parseTimeFlag reads a date or datetime flag value.
func parseTimeFlag(s string) (time.Time, error) {
	t, err := frontmatter.ParseTime(s)
	return t.Time, err
}
