package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/importer"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "import memory from another tool, keeping the source's own dates (docs/import.md)",
		ArgsUsage: "KIND PATH  (KIND: " + strings.Join(importer.Kinds, ", ") + ")",
		Description: "chatgpt PATH: the export's .zip, its conversations.json, or the folder holding it.\n" +
			"claude-ai PATH: Claude.ai's data export: the .zip, or the folder holding conversations.json.\n" +
			"claude-code PATH: ~/.claude/projects, or one project folder in it.\n" +
			"codex [DIR]: Codex's memories folder (default ~/.codex/memories).\n" +
			"memory-md PATH: a hand-kept MEMORY.md or CLAUDE.md.\n" +
			"openclaw PATH: an OpenClaw workspace (MEMORY.md and memory/YYYY-MM-DD.md).\n" +
			"An export of another kind is refused naming the right command (exit 2); a source holding\n" +
			"nothing to import exits 1 saying so. Dates come from the source, never the import time.\n" +
			"Files go under imports/KIND/ with source: import:KIND and do not render until accepted with\n" +
			"'mem review'; then each renders as its project and importance say (a global one needs\n" +
			"importance 7 or more; --project puts the items the source leaves global in a project).\n" +
			"Running the same import again writes nothing. An item the rules of\n" +
			"docs/security.md refuse (a secret, an injection, a file over lint.max_file_size) is reported\n" +
			"on stderr with its reason and left out; the rest is imported, and the command exits 1.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be written, write nothing"},
			&cli.StringFlag{Name: "project", Usage: "the project (a project note's id) of every item the source gives none; default: global"},
		},
		Action: runImport,
	}
}

func runImport(ctx context.Context, cmd *cli.Command) error {
	kind, src := cmd.Args().Get(0), cmd.Args().Get(1)
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	if cmd.NArg() == 1 {
		src = importer.DefaultPath(kind, v.Home)
	}
	if cmd.NArg() > 2 || src == "" {
		return usagef("import needs KIND and PATH: mem import " + strings.Join(importer.Kinds, "|") + " PATH")
	}
	project := cmd.String("project")
	if err := checkImportProject(ctx, v, project); err != nil {
		return err
	}
	errOut := cmd.Root().ErrWriter
	// Ctrl-C stops the import between two items (exit 130): the files
	// written are whole, and the next run skips them.
	ctx, stop := interruptible(ctx)
	defer stop()
	res, err := importer.Run(v, kind, src, importer.Options{
		DryRun: cmd.Bool("dry-run"), Now: now(), Project: project, Context: ctx,
		Warn: func(msg string) { fmt.Fprintln(errOut, "mem: warning:", msg) },
	})
	if err != nil {
		return importFailed(errOut, res, err)
	}
	printImportNotes(errOut, res, cmd.Bool("quiet"))
	err = nil
	if len(res.Refused) > 0 {
		err = checkFailed(fmt.Sprintf("%s: %d %s refused (listed above); the rest was imported", kind, len(res.Refused), plural(len(res.Refused), "item")))
	}
	if cmd.Bool("json") {
		if jerr := writeJSON(cmd.Root().Writer, importJSONOf(res)); jerr != nil {
			return jerr
		}
		return err
	}
	if !cmd.Bool("quiet") {
		printImport(cmd.Root().Writer, kind, res)
	}
	return err
}

// checkImportProject refuses a --project that names no project of the
// vault, before anything is read or written.
func checkImportProject(ctx context.Context, v *vault.Vault, project string) error {
	if project == "" {
		return nil
	}
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return err
	}
	_, err = render.NamedProject(v.Projects(mems), project, "--project")
	return err
}

// importFailed is the error of an import that stopped: the skipped items
// listed, and what was written before it (nothing, or files the next run
// skips).
func importFailed(errOut io.Writer, res *importer.Result, err error) error {
	if res != nil {
		for _, r := range res.Skipped {
			fmt.Fprintln(errOut, "mem: skipped:", r)
		}
	}
	if res != nil && len(res.Files) > 0 {
		return fmt.Errorf("%w (%d files were written before it; run the import again to finish, it skips them)", err, len(res.Files))
	}
	if fail.Of(err) == fail.Interrupted {
		return fmt.Errorf("%w: nothing was written", err)
	}
	return err
}

// printImportNotes says on stderr what was refused, skipped (not with
// --quiet) and escaped.
func printImportNotes(errOut io.Writer, res *importer.Result, quiet bool) {
	for _, r := range res.Refused {
		fmt.Fprintln(errOut, "mem: refused:", r)
	}
	if !quiet {
		for _, r := range res.Skipped {
			fmt.Fprintln(errOut, "mem: skipped:", r)
		}
	}
	for _, where := range res.Escaped {
		fmt.Fprintf(errOut, "mem: warning: %s: HTML tags escaped as text (a tag is refused in a memory; the item is imported with the tag shown, not applied)\n", where)
	}
}

// importJSONOf is res as mem import --json prints it.
func importJSONOf(res *importer.Result) importJSON {
	refusals := func(rs []importer.Refused) []importRefusedJSON {
		out := make([]importRefusedJSON, 0, len(rs))
		for _, r := range rs {
			out = append(out, importRefusedJSON{Message: r.Msg, Rule: r.Rule, Where: r.Where})
		}
		return out
	}
	files := make([]importFileJSON, 0, len(res.Files))
	for _, f := range res.Files {
		files = append(files, importFileJSON{ID: f.ID, Path: f.Path, Project: f.Project,
			Summary: f.Summary, Type: f.Type, ValidAt: f.ValidAt.String()})
	}
	out := importJSON{AlreadyImported: res.Existing, ByType: res.ByType(), DryRun: res.DryRun, Escaped: res.Escaped,
		Files: files, Kind: res.Kind, Path: res.Path, Refused: refusals(res.Refused), Skipped: refusals(res.Skipped), Written: len(res.Files)}
	if out.Escaped == nil {
		out.Escaped = []string{}
	}
	first, last, undated := res.Span()
	out.ValidAt.First, out.ValidAt.Last, out.ValidAt.Undated = first.String(), last.String(), undated
	return out
}

// printImport is mem import's human output: in a dry run each file it
// would write, then the counts and the span of valid_at.
func printImport(w io.Writer, kind string, res *importer.Result) {
	verb := "wrote"
	if res.DryRun {
		verb = "would write"
		for _, f := range res.Files {
			at := f.ValidAt.String()
			if at == "" {
				at = "undated"
			}
			project := ""
			if f.Project != "" {
				project = " " + f.Project
			}
			fmt.Fprintf(w, "%s %s %s%s: %s\n", f.Path, f.Type, at, project, f.Summary)
		}
	}
	var counts []string
	byType := res.ByType()
	for _, t := range sortedTypeNames(byType) {
		counts = append(counts, fmt.Sprintf("%d %s", byType[t], t))
	}
	summary := fmt.Sprintf("%s: %s %d files", kind, verb, len(res.Files))
	if len(counts) > 0 {
		summary += " (" + strings.Join(counts, ", ") + ")"
	}
	summary = fmt.Sprintf("%s; %d already imported", summary, res.Existing)
	if len(res.Refused) > 0 {
		summary += fmt.Sprintf("; %d refused", len(res.Refused))
	}
	if len(res.Skipped) > 0 {
		summary += fmt.Sprintf("; %d skipped", len(res.Skipped))
	}
	fmt.Fprintln(w, summary)
	first, last, undated := res.Span()
	switch {
	case len(res.Files) == 0:
	case first.IsZero():
		fmt.Fprintf(w, "valid_at: none in the source, %d undated\n", undated)
	default:
		fmt.Fprintf(w, "valid_at: %s to %s, %d undated\n", first.Day(), last.Day(), undated)
	}
}

// sortedTypeNames orders the types of a count map the way the docs list them.
func sortedTypeNames(counts map[string]int) []string {
	var out []string
	for _, t := range frontmatter.Types {
		if counts[t] > 0 {
			out = append(out, t)
		}
	}
	return out
}

// importJSON is mem import --json; fields in key order, as the map it
// replaced printed them.
type importJSON struct {
	AlreadyImported int                 `json:"already_imported"`
	ByType          map[string]int      `json:"by_type"`
	DryRun          bool                `json:"dry_run"`
	Escaped         []string            `json:"escaped"`
	Files           []importFileJSON    `json:"files"`
	Kind            string              `json:"kind"`
	Path            string              `json:"path"`
	Refused         []importRefusedJSON `json:"refused"`
	Skipped         []importRefusedJSON `json:"skipped"`
	ValidAt         struct {
		First   string `json:"first"`
		Last    string `json:"last"`
		Undated int    `json:"undated"`
	} `json:"valid_at"`
	Written int `json:"written"`
}

type importFileJSON struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	Project string `json:"project"`
	Summary string `json:"summary"`
	Type    string `json:"type"`
	ValidAt string `json:"valid_at"`
}

type importRefusedJSON struct {
	Message string `json:"message"`
	Rule    string `json:"rule"`
	Where   string `json:"where"`
}
