package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// claimFlags are shared by remember and note: everything a memory carries.
func claimFlags(defaultType string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "type", Value: defaultType, Usage: "identity, preference, decision, fact, lesson, rule or correction"},
		&cli.StringFlag{Name: "provenance", Value: frontmatter.Stated, Usage: "stated (the user said it), observed (verified with a tool) or inferred (a guess)"},
		&cli.StringFlag{Name: "project", Value: "auto", Usage: "auto (resolve from the working directory; an identity or a preference stays global), a project id, or none"},
		&cli.StringSliceFlag{Name: "tag", Usage: "a tag (repeat for more)"},
		&cli.StringSliceFlag{Name: "alias", Usage: "other words a later question may use for it: searched, never rendered (repeat for more)"},
		&cli.IntFlag{Name: "importance", Usage: "1–10 (default 5)"},
		&cli.BoolFlag{Name: "pin", Usage: "render first in every session of its scope: every session when global, only its project's (and nested ones') when it has a project"},
		&cli.StringFlag{Name: "section", Usage: "pinned section: Identity, Preferences, Decisions or Notes"},
		&cli.StringFlag{Name: "key", Usage: "subject key: claims sharing it are reconciled (docs/gate.md)"},
		&cli.StringFlag{Name: "valid-at", Usage: "when the claim became true, YYYY-MM-DD or RFC 3339 (default now)"},
		&cli.StringFlag{Name: "stale-after", Usage: "date the claim goes stale, YYYY-MM-DD"},
		&cli.StringFlag{Name: "ttl", Usage: "time to live instead of --stale-after: 30d, 2w, 6m, 1y"},
		&cli.StringSliceFlag{Name: "supersedes", Usage: "id of a claim this one replaces (repeat for more)"},
		&cli.StringFlag{Name: "session", Usage: "the session writing this memory"},
		&cli.StringFlag{Name: "evidence", Usage: "what was checked, for --provenance observed: a command and its result, a file and its hash, a commit, a URL and when"},
	}
}

func rememberCommand() *cli.Command {
	return &cli.Command{
		Name:      "remember",
		Usage:     "write one memory (at most 2 lines and 280 characters) and print its id",
		ArgsUsage: "TEXT",
		Description: "Prints the new id on stdout and, on stderr, where the memory will render (or why not).\n" +
			"A claim that --supersedes others keeps their project, importance, pin and section unless given.",
		Flags: append(claimFlags(frontmatter.TypeFact),
			&cli.StringFlag{Name: "invalid-at", Usage: "when the claim stopped being true, YYYY-MM-DD or RFC 3339 (it is retired then)"}),
		Action: runRemember,
	}
}

// cliFront names the writer's fields by the flags that set them, so a
// refusal points at what to change on the command line.
var cliFront = writer.Front{Name: func(field string) string {
	switch field {
	case "text":
		return "TEXT"
	case "body":
		return "the note's text"
	case "tags":
		return "--tag"
	case "aliases":
		return "--alias"
	case "id":
		return "ID"
	case "type", "provenance", "project", "importance", "section", "key", "supersedes", "session", "ttl",
		"title", "evidence", "at":
		return "--" + field
	case "valid_at", "stale_after", "invalid_at":
		return "--" + strings.ReplaceAll(field, "_", "-")
	}
	return field // not a flag: a frontmatter key the command sets itself
}}

// frontIn is f for a write that ctx stops before it writes
// (writer.Front.Context).
func frontIn(ctx context.Context, f writer.Front) writer.Front {
	f.Context = ctx
	return f
}

// newMemoryFromFlags fills a vault.NewMemory from the shared claim flags.
func newMemoryFromFlags(cmd *cli.Command, text string) (vault.NewMemory, error) {
	n := vault.NewMemory{
		Text: text, Type: cmd.String("type"), Provenance: cmd.String("provenance"),
		Project: cmd.String("project"), Tags: cmd.StringSlice("tag"), Aliases: cmd.StringSlice("alias"), Importance: int(cmd.Int("importance")),
		Pinned: cmd.Bool("pin"), Section: cmd.String("section"), Key: cmd.String("key"),
		Supersedes: cmd.StringSlice("supersedes"), Session: cmd.String("session"), Evidence: cmd.String("evidence"),
	}
	var err error
	if n.Cwd, err = os.Getwd(); err != nil {
		return n, err
	}
	if n.ValidAt, n.StaleAfter, err = writer.Dates(cliFront, cmd.String("valid-at"), cmd.String("stale-after"), cmd.String("ttl"), now()); err != nil {
		return n, usagef(err.Error())
	}
	return n, nil
}

func runRemember(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() == 0 {
		return usagef("remember needs TEXT: mem remember \"the fact\"")
	}
	n, err := newMemoryFromFlags(cmd, strings.Join(cmd.Args().Slice(), " "))
	if err != nil {
		return err
	}
	if s := cmd.String("invalid-at"); s != "" {
		if n.InvalidAt, err = frontmatter.ParseTime(s); err != nil {
			return usagef("--invalid-at: " + err.Error())
		}
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	m, err := writer.Remember(v, frontIn(ctx, cliFront), n, now())
	if err != nil {
		return err
	}
	if err := printWritten(cmd, m); err != nil {
		return err
	}
	return printPlacement(ctx, cmd, v, m)
}

// printPlacement says on stderr where m renders, by render's own
// selection for the session m belongs to (its project's, or none), so a
// writer learns at once that a claim will not reach the view.
func printPlacement(ctx context.Context, cmd *cli.Command, v *vault.Vault, m *vault.Memory) error {
	if cmd.Bool("quiet") {
		return nil
	}
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return err
	}
	if cur, err := v.FindMemory(mems, m.Rel); err == nil {
		m = cur // as written: an edit may have moved it to another project
	}
	p := vault.FindProject(v.Projects(mems), m.Meta().Project)
	place, err := render.Place(mems, m.ID, render.OptionsFor(v, p, 0, now()))
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.Root().ErrWriter, "%s: %s\n", m.ID, place)
	return nil
}

func printWritten(cmd *cli.Command, m *vault.Memory) error {
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, map[string]string{"id": m.ID, "path": m.Rel})
	}
	fmt.Fprintln(cmd.Root().Writer, m.ID)
	return nil
}
