package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

func projectCommand() *cli.Command {
	return &cli.Command{
		Name:  "project",
		Usage: "create or list project notes (a project's memories render in sessions under its roots)",
		Commands: []*cli.Command{{
			Name:      "add",
			Usage:     "create a project note: mem project add proj_billing --root ~/code/acme/billing --title Billing",
			ArgsUsage: "ID",
			Flags: []cli.Flag{
				&cli.StringSliceFlag{Name: "root", Usage: "a directory of the project (repeat for more; relative to the working directory)"},
				&cli.StringFlag{Name: "title", Usage: "the name its heading shows (default: the id without proj_)"},
			},
			Action: runProjectAdd,
		}, {
			Name:   "list",
			Usage:  "the project notes: id, title, roots",
			Action: runProjectList,
		}},
	}
}

// projectFront names the writer's fields as project add's flags.
var projectFront = writer.Front{Name: func(field string) string {
	switch field {
	case "roots":
		return "--root"
	case "title":
		return "--title"
	}
	return cliFront.Name(field)
}}

func runProjectAdd(ctx context.Context, cmd *cli.Command) error {
	id, err := oneID(cmd, "mem project add proj_billing --root ~/code/acme/billing")
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	m, err := writer.AddProject(v, frontIn(ctx, projectFront), writer.NewProject{ID: id, Title: cmd.String("title"), Roots: cmd.StringSlice("root"), Cwd: cwd}, now())
	if err != nil {
		return err
	}
	for _, root := range m.Meta().Roots {
		if _, err := os.Stat(v.Path(root)); err != nil && !cmd.Bool("quiet") {
			fmt.Fprintf(cmd.Root().ErrWriter, "mem project add: warning: root %s does not exist (yet)\n", root)
		}
	}
	return printWritten(cmd, m)
}

func runProjectList(ctx context.Context, cmd *cli.Command) error {
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return err
	}
	projects := v.Projects(mems)
	if cmd.Bool("json") {
		type project struct {
			ID    string   `json:"id"`
			Title string   `json:"title"`
			Path  string   `json:"path"`
			Roots []string `json:"roots"`
		}
		out := make([]project, len(projects))
		for i, p := range projects {
			out[i] = project{p.ID, p.Name, p.Rel, nonNil(p.Roots)}
		}
		return writeJSON(cmd.Root().Writer, out)
	}
	for _, p := range projects {
		fmt.Fprintf(cmd.Root().Writer, "%s  %s  %s\n", p.ID, p.Name, strings.Join(p.Roots, ", "))
	}
	return nil
}
