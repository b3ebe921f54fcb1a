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

// Present marks each claim of res's hits that no person reviewed with who
// wrote it, from the file as the search read it (index.Hit.File), or,
// for a hit without it (an answer from the daemon's socket), from the
// file read now.
func Present(v *vault.Vault, res index.Result) Result {
	out := Result{Result: res, Hits: make([]Hit, len(res.Hits))}
	var unread []int
	for i, h := range res.Hits {
		out.Hits[i] = Hit{Hit: h}
		if h.File == nil {
			unread = append(unread, i)
		}
	}
	if len(unread) > 0 {
		rels := make([]string, len(unread))
		for j, i := range unread {
			rels[j] = res.Hits[i].Path
		}
		for j, m := range v.LoadFiles(rels, vault.LoadOptions{}) {
			out.Hits[unread[j]].File = m
		}
	}
	for i := range out.Hits {
		if m := out.Hits[i].File; m != nil && m.OK() && claim(m) {
			out.Hits[i].WrittenBy = gate.WrittenBy(m.Meta())
			out.Hits[i].Unreviewed = out.Hits[i].WrittenBy != ""
		}
	}
	return out
}
