package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/writer"
)

func init() {
	register(&cli.Command{
		Name:  "note",
		Usage: "write a long-form note from stdin (or --file) plus a one-line pointer memory to it",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "title", Usage: "the note's title (required)"},
			&cli.StringFlag{Name: "file", Usage: "read the note's body from this file instead of stdin"},
		}, claimFlags(frontmatter.TypeFact)...),
		Action: runNote,
	})
}

func runNote(_ context.Context, cmd *cli.Command) error {
	title := cmd.String("title")
	if strings.TrimSpace(title) == "" {
		return usagef("note needs --title T")
	}
	var body []byte
	var err error
	if f := cmd.String("file"); f != "" {
		body, err = os.ReadFile(f)
	} else {
		body, err = io.ReadAll(os.Stdin)
	}
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(body)) == "" {
		return usagef("the note is empty: pipe its text on stdin or pass --file")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	claim, err := newMemoryFromFlags(cmd, "")
	if err != nil {
		return err
	}
	note, pointer, err := writer.Note(v, title, string(body), claim, now())
	if err != nil {
		return writeError(err)
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, map[string]any{"id": note.ID, "path": note.Rel,
			"pointer": map[string]string{"id": pointer.ID, "path": pointer.Rel}})
	}
	fmt.Fprintln(cmd.Root().Writer, note.ID)
	fmt.Fprintln(cmd.Root().Writer, pointer.ID)
	return nil
}
