// Command mem is a git-native markdown memory toolkit for AI agents. Each
// command lives in its own file and is a few lines wiring flags to a
// package function; newCommands lists them all.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// newCommands builds every command afresh, in the order --help lists
// them within their groups. A run gets new values: urfave/cli keeps which
// flags were set in the command values, and the watch daemon runs many.
func newCommands() []*cli.Command {
	cmds := []*cli.Command{
		auditCommand(),
		backupCommand(),
		cloneCommand(),
		commitCommand(),
		consolidateCommand(),
		correctCommand(),
		doctorCommand(),
		editCommand(),
		gateCommand(),
		importCommand(),
		initCommand(),
		lintCommand(),
		listCommand(),
		logCommand(),
		mcpCommand(),
		noteCommand(),
		projectCommand(),
		promoteCommand(),
		rebuildIndexCommand(),
		rememberCommand(),
		renderCommand(),
		acceptCommand(),
		retireCommand(),
		reviewCommand(),
		searchCommand(),
		serveCommand(),
		showCommand(),
		signalCommand(),
		storesCommand(),
		syncCommand(),
		tokenCommand(),
		watchCommand(),
		versionCommand(),
		pinCommand(true), pinCommand(false),
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	return cmds
}

// Help categories. urfave/cli lists them sorted by name, which is the
// order wanted: daily use, upkeep, then wiring mem into other tools.
const (
	catDaily       = "daily"
	catMaintenance = "maintenance"
	catIntegration = "setup and integration"
)

// categories groups the commands for mem --help; a command missing here is
// listed above the groups, so a new one is never hidden.
var categories = map[string]string{
	"remember": catDaily, "note": catDaily, "render": catDaily, "search": catDaily, "show": catDaily,
	"list": catDaily, "edit": catDaily, "pin": catDaily, "unpin": catDaily, "retire": catDaily,
	"correct": catDaily, "project": catDaily, "review": catDaily, "log": catDaily,
	"gate": catDaily, "promote": catDaily, "signal": catDaily,
	"init": catIntegration, "lint": catMaintenance, "commit": catMaintenance, "backup": catMaintenance,
	"audit": catMaintenance, "doctor": catMaintenance, "rebuild-index": catMaintenance,
	"import": catMaintenance, "sync": catMaintenance, "clone": catMaintenance,
	"mcp": catIntegration, "watch": catIntegration, "completion": catIntegration, "version": catIntegration,
	"serve": catIntegration, "token": catIntegration,
}

// syntaxError is a command line mem could not parse (an unknown command or
// flag, a bad flag value): exit 2, with the pointer to the help as for a
// usageError. An error about the vault or the environment (exit 2 too)
// gets no such footer: the help would not fix it.
type syntaxError struct{ msg string }

func (e syntaxError) Error() string { return e.msg }

// generatedDefault is the default urfave/cli appends to a flag's help.
var generatedDefault = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(default: [^)]*\)`) })

func init() {
	cli.VersionPrinter = printVersion
	cli.SuggestCommand = func(commands []*cli.Command, name string) string {
		if near := nearestCommand(commands, name); near != "" {
			return "Did you mean " + near + "?"
		}
		return ""
	}
	// A flag whose usage already says its default gets no second one:
	// "--importance int  1–10 (default 5)", not "... (default 5) (default: 0)".
	stringer := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string {
		s := stringer(f)
		if df, ok := f.(cli.DocGenerationFlag); ok && strings.Contains(df.GetUsage(), "(default") {
			s = generatedDefault().ReplaceAllString(s, "")
		}
		return s
	}
}

func main() {
	// bleve's scorch reports snapshot recovery through the standard logger;
	// mem says what it does itself, once, so that output is only noise.
	log.SetOutput(io.Discard)
	putOffFirstGC()
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// newRoot builds the mem command with every subcommand, writing to stdout
// and stderr.
func newRoot(stdout, stderr io.Writer) *cli.Command {
	commands := newCommands()
	root := &cli.Command{
		Name:                  "mem",
		Usage:                 "git-native markdown memory for AI agents",
		Version:               vault.Version,
		Description:           "Exit codes: 0 success (warnings allowed), 1 the command's check failed, 2 usage or environment error.",
		Writer:                stdout,
		ErrWriter:             stderr,
		EnableShellCompletion: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "vault", Usage: "vault directory (else the nearest ancestor holding mem.yaml, else $MEM_VAULT)"},
			&cli.BoolFlag{Name: "json", Usage: "machine output on stdout; messages on stderr"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only what scripts need"},
		},
		Commands:       commands,
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		OnUsageError: func(_ context.Context, cmd *cli.Command, err error, _ bool) error {
			if msg := badNumber(cmd, err); msg != "" {
				return syntaxError{msg}
			}
			return syntaxError{err.Error() + suggestFlag(cmd, err)}
		},
		// Reached only without a command, or with one mem does not have.
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.NArg() == 0 {
				return cli.ShowRootCommandHelp(cmd)
			}
			name := cmd.Args().First()
			msg := fmt.Sprintf("%q is not a mem command", name)
			if near := nearestCommand(cmd.Commands, name); near != "" {
				msg += ": did you mean " + near + "?"
			}
			return syntaxError{msg}
		},
		Suggest: true, // 'mem help serch' too; see nearestCommand
		ConfigureShellCompletionCommand: func(c *cli.Command) {
			c.Hidden = false // a documented command (mem completion bash)
			c.Category = catIntegration
			c.Usage = "print the shell completion script for bash, zsh, fish or pwsh"
		},
	}
	for _, c := range commands {
		c.OnUsageError = root.OnUsageError
		c.Category = categories[c.Name]
		if takesID(c) {
			c.ShellComplete = completeIDs
		}
	}
	return root
}

// run executes mem and maps its error to the documented exit code:
// 0 success, 1 the command's check failed, 2 usage or environment error.
func run(ctx context.Context, args []string, rawOut, rawErr io.Writer) int {
	// Every byte a command prints passes rules.Escape (spec §8): a control
	// character a file, a commit or a remote holds reaches no terminal.
	stdout, stderr := rules.NewTerminal(rawOut), rules.NewTerminal(rawErr)
	defer stdout.Flush()
	defer stderr.Flush()
	root := newRoot(stdout, stderr)
	err := root.Run(ctx, args)
	if err == nil {
		return 0
	}
	code := exitCode(err)
	if code == 1 {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "mem:", msg)
		}
		return 1
	}
	fmt.Fprintln(stderr, "mem:", err)
	var ue usageError
	if _, ok := err.(syntaxError); ok || errors.As(err, &ue) {
		fmt.Fprintln(stderr, "Run 'mem --help' or 'mem COMMAND --help' for usage.")
	}
	return code
}

// nearestCommand is the command name name misspells (lint.Nearest), or "".
// It is also urfave/cli's suggestion for 'mem help NAME', whose own
// suggests the closest command however far ('init' for 'xyzzy').
func nearestCommand(commands []*cli.Command, name string) string {
	var names []string
	for _, c := range commands {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	return lint.Nearest(name, names)
}

// undefinedFlag finds the flag in urfave/cli's "flag provided but not
// defined: -limt".
var undefinedFlag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`not defined: -+([^\s=]+)`) })

// invalidNumber is urfave/cli's error for a number flag given no number:
// `invalid value "high" for flag -importance: strconv.ParseInt: ...`.
var invalidNumber = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid value "(.*)" for flag -+([^\s:]+): strconv\.Parse`)
})

// badNumber says, for a number flag given something else, which flag
// wants what — "--importance takes a number, 1–10 (default 5): "high" is
// none" — instead of Go's parser error; "" for any other error.
func badNumber(cmd *cli.Command, err error) string {
	m := invalidNumber().FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	what := "a number"
	for _, c := range cmd.Lineage() {
		for _, f := range c.Flags {
			if df, ok := f.(cli.DocGenerationFlag); ok && slices.Contains(f.Names(), m[2]) && df.GetUsage() != "" {
				what += ", " + df.GetUsage()
			}
		}
	}
	return fmt.Sprintf("--%s takes %s: %q is not one", m[2], what, m[1])
}

// suggestFlag is ": did you mean --limit?" for a mistyped flag of cmd (or
// a global one), or "".
func suggestFlag(cmd *cli.Command, err error) string {
	m := undefinedFlag().FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	var names []string
	for _, c := range cmd.Lineage() {
		for _, f := range c.Flags {
			names = append(names, f.Names()...)
		}
	}
	near := lint.Nearest(m[1], names)
	if near == "" {
		return ""
	}
	if len(near) == 1 {
		return ": did you mean -" + near + "?"
	}
	return ": did you mean --" + near + "?"
}
