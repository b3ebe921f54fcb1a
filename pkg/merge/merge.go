// Package merge is mem sync's memory-aware three-way merge of one file:
// a memory field by field (the reconciler, pkg/gate, decides a field both
// sides set), mem.yaml key by key, anything else by the later commit. It
// takes and returns bytes and knows no git: pkg/history reads the
// versions and writes the result.
package merge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/vault"
)

// Side is one version of a file in a three-way merge; nil Data with
// Present false is a file that side does not have.
type Side struct {
	Data    []byte
	Present bool
	Label   string // "this machine" or "the remote", for decisions
	Later   bool   // this side's commit is the later one (the tie-breaker of last resort)
}

// Result is what merging one path decided: the merged bytes (Present
// false: the path is deleted), an optional sibling file keeping the body
// that lost, and the decisions to record in the merge commit.
type Result struct {
	Data        []byte
	Present     bool
	Sibling     string // vault-relative path of the losing body's new file
	SiblingData []byte
	Decisions   []string
}

// File merges one path changed on both sides. It never writes
// conflict markers: every disagreement is decided and recorded.
func File(rel string, base, ours, theirs Side) Result {
	switch {
	case !ours.Present && !theirs.Present:
		return Result{}
	case !ours.Present || !theirs.Present:
		// Deleted on one side, edited on the other: the edit comes back.
		kept, gone := ours, theirs
		if !ours.Present {
			kept, gone = theirs, ours
		}
		return Result{Data: kept.Data, Present: true, Decisions: []string{
			fmt.Sprintf("%s: deleted on %s, edited on %s: kept the edit", rel, gone.Label, kept.Label)}}
	case bytes.Equal(ours.Data, theirs.Data):
		return Result{Data: ours.Data, Present: true}
	}
	if rel == vault.ConfigFile {
		if m, ok := mergeYAML(rel, base, ours, theirs); ok {
			return m
		}
	} else if strings.HasSuffix(rel, ".md") {
		if m, ok := mergeDoc(rel, base, ours, theirs); ok {
			return m
		}
	}
	// A file mem cannot read field by field: the later side's version
	// stays; the other is kept beside it when it is a note, and in
	// history (the merge's other parent) in every case.
	win, lose := pickLater(ours, theirs)
	m := Result{Data: win.Data, Present: true}
	note := fmt.Sprintf("%s: changed on both machines and not mergeable field by field: kept %s's version (the later commit)", rel, win.Label)
	if strings.HasSuffix(rel, ".md") {
		m.Sibling, m.SiblingData = siblingPath(rel, lose.Data), lose.Data
		note += "; the other is kept as " + m.Sibling
	} else {
		note += "; the other stays in history (the merge's other parent)"
	}
	m.Decisions = append(m.Decisions, note)
	return m
}

// pickLater orders two sides by their commits, later first.
func pickLater(a, b Side) (Side, Side) {
	if b.Later {
		return b, a
	}
	return a, b
}

// siblingPath names the file that keeps a losing body: beside the memory,
// its name suffixed with a hash of the content, so two machines merging
// the same pair pick the same name.
func siblingPath(rel string, data []byte) string {
	sum := sha256.Sum256(data)
	return strings.TrimSuffix(rel, ".md") + "-merged-" + hex.EncodeToString(sum[:])[:7] + ".md"
}

// listFields are the frontmatter keys merged as unions.
var listFields = map[string]bool{"signals": true, "tags": true, "supersedes": true, "verified": true, "sources": true}

// mergeDoc merges a markdown file with frontmatter field by field. ok is
// false when either side does not parse (the caller decides the file).
func mergeDoc(rel string, base, ours, theirs Side) (Result, bool) {
	od, err1 := vault.ParseFile(ours.Data)
	td, err2 := vault.ParseFile(theirs.Data)
	if err1 != nil || err2 != nil || od == nil || td == nil || !od.HasFrontmatter || !td.HasFrontmatter {
		return Result{}, false
	}
	bd := &frontmatter.Document{}
	if base.Present {
		if d, err := vault.ParseFile(base.Data); err == nil && d != nil {
			bd = d
		}
	}
	w := pickWinner(od, td, ours, theirs)
	out := *od
	out.Meta = od.Meta
	m := Result{Present: true}
	conflicted := mergeFields(&out.Meta, &od.Meta, &td.Meta, &bd.Meta, &w.doc.Meta)
	out.Extra = mergeExtra(od.Extra, td.Extra, bd.Extra, w.doc == od, &conflicted)
	switch {
	case od.Body == td.Body || td.Body == bd.Body:
		out.Body = od.Body
	case od.Body == bd.Body:
		out.Body = td.Body
	default:
		// Both rewrote the text: the winner's stands, and the loser's
		// becomes a sibling memory the winner supersedes, so it is still
		// found (mem show, search) but never rendered as current.
		out.Body = w.doc.Body
		m.Sibling, m.SiblingData = loserSibling(rel, &out, w.lost)
		m.Decisions = append(m.Decisions, fmt.Sprintf("%s: body changed on both machines: kept %s's (%s); %s's is kept as %s, superseded", rel, w.side.Label, w.why, w.lostSide.Label, m.Sibling))
	}
	if len(conflicted) > 0 {
		m.Decisions = append(m.Decisions, fmt.Sprintf("%s: %s set differently on both machines: kept %s's (%s); %s's stays in history", rel, strings.Join(conflicted, ", "), w.side.Label, w.why, w.lostSide.Label))
	}
	m.Data = out.Marshal()
	return m, true
}

// winner is the side whose value stands for any field both sides set
// differently, the other, and why.
type winner struct {
	doc, lost      *frontmatter.Document
	side, lostSide Side
	why            string
}

// pickWinner applies the reconciler's rule (provenance, then the later
// valid_at), then the later generated.at, then the later commit.
func pickWinner(od, td *frontmatter.Document, ours, theirs Side) winner {
	var why string
	c := gate.Compare(&od.Meta, &td.Meta)
	switch {
	case c != 0:
		why = "provenance, then the later valid_at"
	case generatedAt(od) != generatedAt(td):
		c, why = strings.Compare(generatedAt(od), generatedAt(td)), "the later generated.at"
	default:
		c, why = -1, "the later commit"
		if ours.Later {
			c = 1
		}
	}
	if c < 0 {
		return winner{doc: td, lost: od, side: theirs, lostSide: ours, why: why}
	}
	return winner{doc: od, lost: td, side: ours, lostSide: theirs, why: why}
}

// mergeFields sets out (a copy of ours) field by field from ours, theirs
// and base: a field one side changed takes that change, a list both
// changed is their union, any other both changed takes win's value and is
// returned. It walks frontmatter's table, so a field is named by its YAML
// key (valid_at, stale_after), as the user wrote it.
func mergeFields(out, ours, theirs, base, win *frontmatter.Meta) []string {
	var conflicted []string
	for _, f := range frontmatter.Fields {
		field := func(m *frontmatter.Meta) reflect.Value { return reflect.ValueOf(f.Value(m)).Elem() }
		ov, o, t, b := field(out), field(ours), field(theirs), field(base)
		switch {
		case reflect.DeepEqual(o.Interface(), t.Interface()), reflect.DeepEqual(t.Interface(), b.Interface()):
			// ours already
		case reflect.DeepEqual(o.Interface(), b.Interface()):
			ov.Set(t)
		case listFields[f.Key]:
			ov.Set(union(o, t))
		default:
			ov.Set(field(win))
			conflicted = append(conflicted, f.Key)
		}
	}
	return conflicted
}

// loserSibling is the file that keeps the losing body: a copy of lose
// with an id of its own that out now supersedes.
func loserSibling(rel string, out, lose *frontmatter.Document) (string, []byte) {
	sib := *lose
	sibRel := siblingPath(rel, lose.Marshal())
	stem := strings.TrimSuffix(path.Base(sibRel), ".md")
	if sib.Meta.ID != "" {
		sib.Meta.ID = sib.Meta.ID + stem[strings.LastIndex(stem, "-merged-"):]
	}
	sib.Meta.Supersedes = nil
	if sib.Meta.ID != "" && !slices.Contains(out.Meta.Supersedes, sib.Meta.ID) {
		out.Meta.Supersedes = append(out.Meta.Supersedes, sib.Meta.ID)
	}
	return sibRel, sib.Marshal()
}

func generatedAt(d *frontmatter.Document) string {
	if d.Meta.Generated == nil {
		return ""
	}
	return d.Meta.Generated.At.UTC().Format("2006-01-02T15:04:05")
}

// union is a's items, then b's that a lacks.
func union(a, b reflect.Value) reflect.Value {
	out := reflect.MakeSlice(a.Type(), 0, a.Len()+b.Len())
	out = reflect.AppendSlice(out, a)
	for j := 0; j < b.Len(); j++ {
		dup := false
		for i := 0; i < a.Len(); i++ {
			if reflect.DeepEqual(a.Index(i).Interface(), b.Index(j).Interface()) {
				dup = true
				break
			}
		}
		if !dup {
			out = reflect.Append(out, b.Index(j))
		}
	}
	return out
}

// mergeExtra merges the keys mem does not know, key by key; two values
// are the same when they are written the same (Value.String).
func mergeExtra(ours, theirs, base []frontmatter.KeyValue, oursWins bool, conflicted *[]string) []frontmatter.KeyValue {
	enc := func(kvs []frontmatter.KeyValue) (map[string]string, map[string]frontmatter.Value) {
		s, n := map[string]string{}, map[string]frontmatter.Value{}
		for _, kv := range kvs {
			s[kv.Key], n[kv.Key] = kv.Value.String(), kv.Value
		}
		return s, n
	}
	os_, on := enc(ours)
	ts, tn := enc(theirs)
	bs, _ := enc(base)
	var out []frontmatter.KeyValue
	keys := append([]frontmatter.KeyValue(nil), ours...)
	for _, kv := range theirs {
		if _, ok := on[kv.Key]; !ok {
			keys = append(keys, kv)
		}
	}
	for _, kv := range keys {
		k := kv.Key
		o, oOK := os_[k]
		t, tOK := ts[k]
		b, bOK := bs[k]
		pick, present := on[k], oOK
		switch {
		case oOK == tOK && o == t, tOK == bOK && t == b:
		case oOK == bOK && o == b:
			pick, present = tn[k], tOK
		case !oursWins:
			pick, present = tn[k], tOK
			*conflicted = append(*conflicted, k)
		default:
			*conflicted = append(*conflicted, k)
		}
		if present {
			out = append(out, frontmatter.KeyValue{Key: k, Value: pick})
		}
	}
	return out
}

// mergeYAML merges mem.yaml key by key (vault.MergeConfig); a key both
// sides set differently takes the later commit's value.
func mergeYAML(rel string, base, ours, theirs Side) (Result, bool) {
	data, decided, ok := vault.MergeConfig(base.Data, ours.Data, theirs.Data, theirs.Later)
	if !ok {
		return Result{}, false
	}
	m := Result{Data: data, Present: true}
	if len(decided) > 0 {
		win := ours.Label
		if theirs.Later {
			win = theirs.Label
		}
		m.Decisions = []string{fmt.Sprintf("%s: %s set differently on both machines: kept %s's (the later commit); the other stays in history", rel, strings.Join(decided, ", "), win)}
	}
	return m, true
}
