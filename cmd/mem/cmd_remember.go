package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/vault"
)

// claimFlags are shared by remember and note: everything a memory carries.
func claimFlags(defaultType string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "type", Value: defaultType, Usage: "identity, preference, decision, fact, lesson, rule or correction"},
		&cli.StringFlag{Name: "provenance", Value: frontmatter.Stated, Usage: "stated (the user said it), observed (verified with a tool) or inferred (a guess)"},
		&cli.StringFlag{Name: "project", Value: "auto", Usage: "auto (resolve from the working directory), a project id, or none"},
		&cli.StringSliceFlag{Name: "tag", Usage: "a tag (repeat for more)"},
		&cli.IntFlag{Name: "importance", Usage: "1–10 (default 5)"},
		&cli.BoolFlag{Name: "pin", Usage: "render in every session"},
		&cli.StringFlag{Name: "section", Usage: "pinned section: Identity, Preferences, Decisions or Notes"},
		&cli.StringFlag{Name: "key", Usage: "subject key: claims sharing it are reconciled (docs/gate.md)"},
		&cli.StringFlag{Name: "valid-at", Usage: "when the claim became true, YYYY-MM-DD or RFC 3339 (default now)"},
		&cli.StringFlag{Name: "stale-after", Usage: "date the claim goes stale, YYYY-MM-DD"},
		&cli.StringFlag{Name: "ttl", Usage: "time to live instead of --stale-after: 30d, 2w, 6m, 1y"},
		&cli.StringSliceFlag{Name: "supersedes", Usage: "id of a claim this one replaces (repeat for more)"},
		&cli.StringFlag{Name: "session", Usage: "the session writing this memory"},
	}
}

func init() {
	register(&cli.Command{
		Name:      "remember",
		Usage:     "write one memory (at most 2 lines and 280 characters) and print its id",
		ArgsUsage: "TEXT",
		Flags:     claimFlags(frontmatter.TypeFact),
		Action:    runRemember,
	})
}

// newMemoryFromFlags fills a vault.NewMemory from the shared claim flags.
func newMemoryFromFlags(cmd *cli.Command, text string) (vault.NewMemory, error) {
	n := vault.NewMemory{
		Text: text, Type: cmd.String("type"), Provenance: cmd.String("provenance"),
		Project: cmd.String("project"), Tags: cmd.StringSlice("tag"), Importance: int(cmd.Int("importance")),
		Pinned: cmd.Bool("pin"), Section: cmd.String("section"), Key: cmd.String("key"),
		Supersedes: cmd.StringSlice("supersedes"), Session: cmd.String("session"),
	}
	var err error
	if n.Cwd, err = os.Getwd(); err != nil {
		return n, err
	}
	t := now()
	if s := cmd.String("valid-at"); s != "" {
		if n.ValidAt, err = frontmatter.ParseTime(s); err != nil {
			return n, usagef("--valid-at: " + err.Error())
		}
	}
	stale, ttl := cmd.String("stale-after"), cmd.String("ttl")
	switch {
	case stale != "" && ttl != "":
		return n, usagef("give --stale-after or --ttl, not both")
	case stale != "":
		if n.StaleAfter, err = frontmatter.ParseTime(stale); err != nil {
			return n, usagef("--stale-after: " + err.Error())
		}
		n.StaleAfter = frontmatter.NewDate(n.StaleAfter.Time)
	case ttl != "":
		if n.StaleAfter, err = vault.ParseTTL(ttl, t); err != nil {
			return n, usagef(err.Error())
		}
	}
	return n, nil
}

func runRemember(_ context.Context, cmd *cli.Command) error {
	if cmd.NArg() == 0 {
		return usagef("remember needs TEXT: mem remember \"the fact\"")
	}
	text := strings.Join(cmd.Args().Slice(), " ")
	n, err := newMemoryFromFlags(cmd, text)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	m, err := remember(v, n)
	if err != nil {
		return err
	}
	return printWritten(cmd, m)
}

// remember validates n against the loaded vault and writes it.
func remember(v *vault.Vault, n vault.NewMemory) (*vault.Memory, error) {
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	t := now()
	doc, err := prepareMemory(v, mems, n, t)
	if err != nil {
		return nil, err
	}
	return v.Create(memoryDir(n), n.Text, doc, t)
}

// prepareMemory builds and checks the document for n (boundary, secrets,
// enums, project, supersession) without writing anything.
func prepareMemory(v *vault.Vault, mems []*vault.Memory, n vault.NewMemory, t time.Time) (*frontmatter.Document, error) {
	doc, err := v.BuildDocument(n, v.Projects(mems), t)
	var tooLong vault.ErrTooLong
	var secret vault.ErrSecret
	if errors.As(err, &tooLong) || errors.As(err, &secret) {
		return nil, checkFailed(err.Error())
	}
	if err != nil {
		return nil, usagef(err.Error())
	}
	if err := checkSupersedes(v, mems, &doc.Meta); err != nil {
		return nil, err
	}
	return doc, nil
}

func memoryDir(n vault.NewMemory) string {
	if n.Dir == "" {
		return "memory"
	}
	return n.Dir
}

// checkSupersedes refuses (exit 1) a --supersedes that names no memory, or
// that the reconciler would refuse (a weaker claim replacing a stronger
// one, a newer write of an older fact); gate.Supersede also stores ids
// and carries the targets' key over (docs/gate.md).
func checkSupersedes(v *vault.Vault, mems []*vault.Memory, meta *frontmatter.Meta) error {
	olds := make([]*vault.Memory, len(meta.Supersedes))
	for i, ref := range meta.Supersedes {
		old, err := lookupMemory(v, mems, ref)
		if err != nil {
			return fmt.Errorf("--supersedes: %w", err)
		}
		olds[i] = old
	}
	err := gate.Supersede(meta, olds)
	var se *gate.SupersessionError
	if errors.As(err, &se) {
		return checkFailed(fmt.Sprintf("--supersedes %s: refused: %v", se.Old, err))
	}
	return err
}

func printWritten(cmd *cli.Command, m *vault.Memory) error {
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, map[string]string{"id": m.ID, "path": m.Rel})
	}
	fmt.Fprintln(cmd.Root().Writer, m.ID)
	return nil
}
