package main

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/writer"
)

func signalCommand() *cli.Command {
	return &cli.Command{
		Name:      "signal",
		Usage:     "record evidence from a session for an inferred lesson or rule",
		ArgsUsage: "ID",
		Description: "Signals are distinct by session and evidence: the same evidence from the same session is\n" +
			"recorded once (a repeat exits 0 and changes nothing). Prints the lesson's weight and what\n" +
			"it still needs to be promoted. See docs/gate.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "the session that saw the evidence (required)"},
			&cli.StringFlag{Name: "evidence", Usage: "one line: what happened (required)"},
			&cli.StringFlag{Name: "at", Usage: "when it happened, YYYY-MM-DD or RFC 3339 (default now; not after today)"},
		},
		Action: runSignal,
	}
}

func runSignal(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() != 1 {
		return usagef("signal needs one ID: mem signal memory/the-lesson --session S --evidence 'what happened'")
	}
	t := now()
	s, err := signalFromFlags(cmd, t)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	res, err := writer.Signal(v, frontIn(ctx, cliFront), cmd.Args().First(), "", s, t)
	if err != nil {
		return err
	}
	m, verdict := res.Memory, res.Verdict
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, struct {
			gate.Entry
			Added bool `json:"added"`
		}{gate.Entry{ID: m.ID, Path: m.Rel, Weight: verdict.Weight, Sessions: verdict.Sessions,
			Eligible: verdict.Eligible, Missing: verdict.Missing}, res.Added})
	}
	if cmd.Bool("quiet") {
		return nil
	}
	w := cmd.Root().Writer
	if !res.Added {
		fmt.Fprintf(w, "%s: this session already gave this evidence; nothing changed\n", m.ID)
	}
	fmt.Fprintf(w, "%s: %s\n", m.ID, verdictLine(m.ID, res.Type, verdict))
	return nil
}

// signalFromFlags checks the flags and fills the signal, recorded at t
// unless --at says when it happened.
func signalFromFlags(cmd *cli.Command, t time.Time) (frontmatter.Signal, error) {
	s := frontmatter.Signal{Session: cmd.String("session"), Evidence: cmd.String("evidence"), At: frontmatter.NewTime(t)}
	if at := cmd.String("at"); at != "" {
		var err error
		if s.At, err = frontmatter.ParseTime(at); err != nil {
			return s, usagef("--at: " + err.Error())
		}
	}
	// Checked here too (the writer checks again) so a bad flag is a usage error.
	if err := gate.CheckSignal(s, t); err != nil {
		return s, usagef(err.Error())
	}
	return s, nil
}

// verdictLine is the gate's answer in words for a lesson or rule, for
// signal and gate.
func verdictLine(id, typ string, v gate.Verdict) string {
	s := fmt.Sprintf("weight %g from %d %s", v.Weight, v.Sessions, plural(v.Sessions, "session"))
	switch {
	case v.Eligible && typ == frontmatter.TypeRule:
		return s + ": passes the gate"
	case v.Eligible:
		return s + ": eligible (mem promote " + id + ")"
	case typ == frontmatter.TypeRule:
		return s + ": no longer passes the gate: " + v.Missing + " (add evidence with 'mem signal', or set type: lesson)"
	}
	return s + ": " + v.Missing
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
