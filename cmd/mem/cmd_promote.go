package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/vault"
)

func init() {
	register(&cli.Command{
		Name:      "promote",
		Usage:     "turn an eligible lesson into a standing rule (the promotion gate)",
		ArgsUsage: "ID",
		Description: "An inferred lesson becomes a rule only when its signals weigh at least 3 and come from at\n" +
			"least 2 sessions (mem.yaml gate:); otherwise promote exits 1 and says what is missing.\n" +
			"Stated and observed lessons need no gate. Signals are kept and promoted_at is recorded.\n" +
			"See docs/gate.md.",
		Action: runPromote,
	})
}

func runPromote(_ context.Context, cmd *cli.Command) error {
	if cmd.NArg() != 1 {
		return usagef("promote needs one ID: mem promote memory/the-lesson")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	m, err := loadMemory(v, cmd.Args().First())
	if err != nil {
		return err
	}
	t := now()
	var verdict gate.Verdict
	err = v.Update(m.Rel, "", t, func(doc *frontmatter.Document) error {
		var err error
		verdict, err = gate.Promote(doc, t, v.Config.Gate)
		return err
	})
	if err := refusal(m, err); err != nil {
		return err
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, map[string]any{
			"id": m.ID, "path": m.Rel, "type": frontmatter.TypeRule,
			"weight": verdict.Weight, "sessions": verdict.Sessions,
			gate.PromotedAtKey: frontmatter.NewTime(t).String(),
		})
	}
	if !cmd.Bool("quiet") {
		fmt.Fprintf(cmd.Root().Writer, "%s is now a rule\n", m.ID)
	}
	return nil
}

// refusal maps a gate decision against the caller to exit 1 naming the
// file; any other error passes through unchanged.
func refusal(m *vault.Memory, err error) error {
	var re *gate.RefusedError
	if errors.As(err, &re) {
		return checkFailed(fmt.Sprintf("%s: %s", m.Rel, re.Msg))
	}
	return err
}

// loadMemory loads the vault and finds one memory by id or path.
func loadMemory(v *vault.Vault, ref string) (*vault.Memory, error) {
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	return lookupMemory(v, mems, ref)
}

// lookupMemory finds the memory ref names (vault.FindMemory: an id or a
// path, as people copy either from Obsidian). No match is a failed check
// (exit 1); a match that does not parse, or an id two files share, cannot
// be acted on until fixed (exit 2).
func lookupMemory(v *vault.Vault, mems []*vault.Memory, ref string) (*vault.Memory, error) {
	m, err := v.FindMemory(mems, ref)
	if errors.Is(err, vault.ErrNotFound) {
		return nil, checkFailed(err.Error())
	}
	if err != nil {
		return nil, err
	}
	if !m.OK() {
		return nil, fmt.Errorf("%s:%v (fix the file first; 'mem lint %s' shows the problem)", m.Rel, m.Err, m.Rel)
	}
	return m, nil
}
