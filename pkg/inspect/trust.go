package inspect

import (
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/vault"
)

// Hit is a search hit as every read presents it (mem search, MCP search
// and recall): the index's hit and, for a claim no person wrote or
// accepted, who wrote it (spec §5.2b: every hit of an unreviewed claim
// says so). Ranking stays the index's; this is presentation.
type Hit struct {
	index.Hit
	Unreviewed bool   `json:"unreviewed,omitempty"`
	WrittenBy  string `json:"written_by,omitempty"`
}

// Result is a search's answer with its hits presented as Hit.
type Result struct {
	index.Result
	Hits []Hit `json:"hits"`
}

// Note is the words a human output adds to an unreviewed hit's line:
// "unreviewed, written by process:claude-code"; "" for a reviewed one.
func (h Hit) Note() string {
	if !h.Unreviewed {
		return ""
	}
	return "unreviewed, written by " + h.WrittenBy
}

// Present reads the files behind res's hits (only those) and marks each
// claim no person reviewed with who wrote it.
func Present(v *vault.Vault, res index.Result) Result {
	out := Result{Result: res, Hits: make([]Hit, len(res.Hits))}
	rels := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		out.Hits[i] = Hit{Hit: h}
		rels[i] = h.Path
	}
	for i, m := range v.LoadFiles(rels, vault.LoadOptions{}) {
		if m != nil && m.OK() && claim(m) {
			out.Hits[i].WrittenBy = gate.WrittenBy(m.Meta())
			out.Hits[i].Unreviewed = out.Hits[i].WrittenBy != ""
		}
	}
	return out
}
