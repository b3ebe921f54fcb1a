package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v3"
)

// The command reference (docs/reference.md) and the man page (docs/mem.1)
// are generated from the command definitions themselves, so they cannot
// drift: TestReferenceIsCurrent fails when either differs from what this
// writes (MEM_UPDATE_REFERENCE=1 rewrites them).

// visible are the commands a person can run, sorted, with their subcommands.
func visible(cmds []*cli.Command) []*cli.Command {
	var out []*cli.Command
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// flagParts is one flag as --help shows it: its names and value, and its
// usage.
func flagParts(f cli.Flag) (names, usage string) {
	names, usage, _ = strings.Cut(cli.FlagStringer(f), "\t")
	return strings.TrimSpace(names), strings.Join(strings.Fields(usage), " ")
}

// writeReference writes docs/reference.md's text for root.
func writeReference(w io.Writer, root *cli.Command) {
	fmt.Fprintf(w, "# Command reference\n\nGenerated from the command definitions by `MEM_UPDATE_REFERENCE=1 go test ./cmd/mem -run TestReferenceIsCurrent`; do not edit. `mem COMMAND --help` prints the same.\n\n")
	fmt.Fprintf(w, "%s\n\n## Global flags\n\nAccepted before or after the command name.\n\n", root.Description)
	for _, f := range root.Flags {
		names, usage := flagParts(f)
		fmt.Fprintf(w, "- `%s`: %s\n", names, usage)
	}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range visible(cmds) {
			name := strings.TrimSpace(prefix + " " + c.Name)
			fmt.Fprintf(w, "\n## mem %s\n\n", name)
			usage := "mem " + name
			if c.ArgsUsage != "" {
				usage += " " + c.ArgsUsage
			}
			fmt.Fprintf(w, "`%s`\n\n%s\n", usage, c.Usage)
			if c.Description != "" {
				fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.Description))
			}
			if len(c.Flags) > 0 {
				fmt.Fprintln(w)
				for _, f := range c.Flags {
					names, usage := flagParts(f)
					fmt.Fprintf(w, "- `%s`: %s\n", names, usage)
				}
			}
			walk(name, c.Commands)
		}
	}
	walk("", root.Commands)
}

// roff escapes text for a man page line.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// writeMan writes docs/mem.1 for root.
func writeMan(w io.Writer, root *cli.Command) {
	fmt.Fprintf(w, ".TH MEM 1 \"\" \"mem %s\" \"mem manual\"\n", root.Version)
	fmt.Fprintf(w, ".SH NAME\nmem \\- %s\n", roff(root.Usage))
	fmt.Fprintf(w, ".SH SYNOPSIS\n.B mem\n[\\fIGLOBAL FLAGS\\fR] \\fICOMMAND\\fR [\\fIFLAGS\\fR] [\\fIARGS\\fR]\n")
	fmt.Fprintf(w, ".SH DESCRIPTION\n%s\n.SH GLOBAL FLAGS\n", roff(root.Description))
	for _, f := range root.Flags {
		names, usage := flagParts(f)
		fmt.Fprintf(w, ".TP\n.B %s\n%s\n", roff(names), roff(usage))
	}
	fmt.Fprintf(w, ".SH COMMANDS\n")
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range visible(cmds) {
			name := strings.TrimSpace(prefix + " " + c.Name)
			fmt.Fprintf(w, ".SS \"mem %s %s\"\n%s\n", roff(name), roff(c.ArgsUsage), roff(c.Usage))
			for _, f := range c.Flags {
				names, usage := flagParts(f)
				fmt.Fprintf(w, ".TP\n.B %s\n%s\n", roff(names), roff(usage))
			}
			walk(name, c.Commands)
		}
	}
	walk("", root.Commands)
	fmt.Fprintf(w, ".SH EXIT STATUS\n0 success (warnings allowed), 1 the command's check failed, 2 usage or environment error.\n.SH SEE ALSO\ngit(1)\n")
}
