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
	"github.com/mem-md/mem/pkg/writer"
)

func noteCommand() *cli.Command {
	return &cli.Command{
		Name:  "note",
		Usage: "write a long-form note from stdin (or --file) plus a one-line pointer memory to it",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "title", Usage: "the note's title (required)"},
			&cli.StringFlag{Name: "file", Usage: "read the note's body from this file instead of stdin"},
		}, claimFlags(frontmatter.TypeFact)...),
		Action: runNote,
	}
}

func runNote(ctx context.Context, cmd *cli.Command) error {
	title := cmd.String("title")
	if strings.TrimSpace(title) == "" {
		return usagef("note needs --title T")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	in := io.Reader(os.Stdin)
	if f := cmd.String("file"); f != "" {
		file, err := vault.OpenInput(f)
		if err != nil {
			return err
		}
		defer file.Close()
		in = file
	}
	// Read one byte past the limit, never the whole of a huge input: a
	// note over lint.max_file_size would never be read back (the writer
	// refuses it), so there is no need to hold it all.
	limit := v.Config.Lint.MaxFileSize
	body, err := io.ReadAll(io.LimitReader(in, limit+1))
	if err != nil {
		return err
	}
	if int64(len(body)) > limit {
		return checkFailed(fmt.Sprintf("refused: the note's text: file-too-large: the note is over lint.max_file_size (%d bytes): mem never reads a file that large; split it into smaller notes or raise lint.max_file_size in mem.yaml", limit))
	}
	if strings.TrimSpace(string(body)) == "" {
		return usagef("the note is empty: pipe its text on stdin or pass --file")
	}
	claim, err := newMemoryFromFlags(cmd, "")
	if err != nil {
		return err
	}
	note, pointer, err := writer.Note(v, frontIn(ctx, cliFront), title, string(body), claim, now())
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, noteJSON{ID: note.ID, Path: note.Rel,
			Pointer: idPath{ID: pointer.ID, Path: pointer.Rel}})
	}
	fmt.Fprintln(cmd.Root().Writer, note.ID)
	fmt.Fprintln(cmd.Root().Writer, pointer.ID)
	if !cmd.Bool("quiet") {
		fmt.Fprintf(cmd.Root().ErrWriter, "%s: the note (searchable, never rendered); its one-line pointer is %s\n", note.ID, pointer.ID)
	}
	return printPlacement(ctx, cmd, v, pointer)
}

// noteJSON is mem note --json: the note and its pointer.
type noteJSON struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	Pointer idPath `json:"pointer"`
}

type idPath struct {
	ID   string `json:"id"`
	Path string `json:"path"`
}
