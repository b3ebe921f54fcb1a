package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
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
	title := strings.TrimSpace(cmd.String("title"))
	if title == "" {
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
	n, err := newMemoryFromFlags(cmd, string(body))
	if err != nil {
		return err
	}
	note, pointer := n, n
	note.Type, note.Title, note.Dir, note.Supersedes, note.Pinned, note.Key = frontmatter.TypeNote, title, "notes", nil, false, ""
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return err
	}
	t := now()
	noteDoc, err := v.BuildDocument(note, v.Projects(mems), t)
	if err != nil {
		return usagef(err.Error())
	}
	// Check the pointer before writing anything, so a refused pointer never
	// leaves an orphan note. The note's id is not known yet; a placeholder of
	// the same length stands in for its random suffix.
	pointer.Text = vault.PointerText(title, "notes/"+vault.Slug(title, 48)+"-000000")
	pointerDoc, err := prepareMemory(v, mems, pointer, t)
	if err != nil {
		return err
	}
	noteMem, err := v.Create("notes", title, noteDoc, t)
	if err != nil {
		return err
	}
	pointer.Text = vault.PointerText(title, noteMem.ID)
	pointerDoc.Body = pointer.Text + "\n"
	pointerMem, err := v.Create(memoryDir(pointer), pointer.Text, pointerDoc, t)
	if err != nil {
		return fmt.Errorf("note written to %s, but its pointer memory was not: %w", noteMem.Rel, err)
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, map[string]any{"id": noteMem.ID, "path": noteMem.Rel,
			"pointer": map[string]string{"id": pointerMem.ID, "path": pointerMem.Rel}})
	}
	fmt.Fprintln(cmd.Root().Writer, noteMem.ID)
	fmt.Fprintln(cmd.Root().Writer, pointerMem.ID)
	return nil
}
