package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/vault"
)

func gateCommand() *cli.Command {
	return &cli.Command{
		Name:  "gate",
		Usage: "show every inferred lesson's weight and what it needs to become a rule",
		Description: "Lists inferred lessons with their signal weight, distinct sessions, eligibility and what is\n" +
			"missing, then inferred rules whose signals no longer pass (they aged past gate.half_after_days).\n" +
			"--json prints {\"lessons\": [...], \"rules\": [...]}, each {id, path, weight, sessions, eligible,\n" +
			"missing}. Exit 0: this is a report; 'mem lint' fails the rules that do not pass. See docs/gate.md.",
		Action: runGate,
	}
}

func runGate(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() != 0 {
		return usagef("gate takes no arguments: to act on one lesson use 'mem signal ID' or 'mem promote ID'")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return err
	}
	stderr := cmd.Root().ErrWriter
	for _, m := range mems {
		if !m.OK() {
			fmt.Fprintf(stderr, "mem: warning: %s:%v (skipped; 'mem lint %s' explains)\n", m.Rel, m.Err, m.Rel)
		}
	}
	r := gate.BuildReport(mems, now(), v.Config.Gate)
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, r)
	}
	w := cmd.Root().Writer
	if len(r.Lessons)+len(r.Rules) == 0 {
		if !cmd.Bool("quiet") {
			fmt.Fprintln(w, "no inferred lessons or failing rules")
		}
		return nil
	}
	for _, e := range r.Lessons {
		fmt.Fprintf(w, "lesson %s: %s\n", e.ID, verdictLine(e.ID, frontmatter.TypeLesson, entryVerdict(e)))
	}
	for _, e := range r.Rules {
		fmt.Fprintf(w, "rule %s: %s\n", e.ID, verdictLine(e.ID, frontmatter.TypeRule, entryVerdict(e)))
	}
	return nil
}

func entryVerdict(e gate.Entry) gate.Verdict {
	return gate.Verdict{Weight: e.Weight, Sessions: e.Sessions, Eligible: e.Eligible, Missing: e.Missing}
}
