package render

import (
	"bufio"
	"fmt"
	"io"
)

// hookCap is the most characters Claude Code injects from a hook's
// additionalContext; a larger budget risks a truncated memory view.
const hookCap = 10000

// HookOutput is the JSON a Claude Code SessionStart hook prints.
type HookOutput struct {
	HookSpecificOutput HookSpecific `json:"hookSpecificOutput"`
}

// HookSpecific carries the rendered document as additional context.
type HookSpecific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// Hook wraps the document for a SessionStart hook.
func (r *Result) Hook() HookOutput {
	return HookOutput{HookSpecific{HookEventName: "SessionStart", AdditionalContext: string(r.Doc)}}
}

// JSONOutput is what --format json prints: the selection and the drops.
type JSONOutput struct {
	Project *string `json:"project"` // null when the session has no project
	// Enclosing are the projects enclosing it, nearest first (spec §5.1).
	Enclosing []string `json:"enclosing"`
	Bytes     int      `json:"bytes"`
	Budget    int      `json:"budget"`
	Items     []Item   `json:"items"`
	Dropped   []Drop   `json:"dropped"`
}

// JSON is the --format json view of the result.
func (r *Result) JSON() JSONOutput {
	out := JSONOutput{Bytes: len(r.Doc), Budget: r.Budget, Items: r.Items, Dropped: r.Dropped, Enclosing: []string{}}
	if r.project != nil {
		out.Project = &r.project.ID
		for _, p := range r.project.Enclosing {
			out.Enclosing = append(out.Enclosing, p.ID)
		}
	}
	if out.Items == nil {
		out.Items = []Item{}
	}
	if out.Dropped == nil {
		out.Dropped = []Drop{}
	}
	return out
}

// Explain writes every decision of the render, for a person: the project,
// the size against the budget, each rendered item with its tier, and each
// memory left out with the reason.
func (r *Result) Explain(w io.Writer) error {
	bw := bufio.NewWriter(w)
	project := "none (no --project, and no project root contains the working directory)"
	if r.project != nil {
		project = r.project.ID + " (" + r.project.Name + ")"
		for _, p := range r.project.Enclosing {
			project += ", inside " + p.ID + " (" + p.Name + ")"
		}
	}
	fmt.Fprintf(bw, "project: %s\n", project)
	fmt.Fprintf(bw, "size: %d of %d bytes; %d rendered, %d left out\n", len(r.Doc), r.Budget, len(r.Items), len(r.Dropped))
	for _, it := range r.Items {
		fmt.Fprintf(bw, "  + %-7s %-20s %s\n", it.Tier, it.Section, it.ID)
	}
	for _, d := range r.Dropped {
		fmt.Fprintf(bw, "  - %s: %s\n", d.ID, d.Reason)
	}
	return bw.Flush()
}
