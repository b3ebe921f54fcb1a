package secrets

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// memoTexts are texts with and without secrets, plain and obfuscated.
func memoTexts() []string {
	return []string{
		"",
		"a clean line about postgres",
		"---\ntype: fact\n---\nThe key is " + fakeAWS + " in prod.\n",
		"token " + fakeGH + " and " + fakeAWS,
		"k = \"" + fakeAWS[:8] + "\" + \"" + fakeAWS[8:] + "\"",
		"the staging password is " + "hunter2",
		"blob " + "QUtJQVEzWlJUVjVXWDdISjJMTkI=",
	}
}

// A Memo answers as Find does, scanning each text once; decoded, it
// answers again without scanning; under other rules, or for findings that
// cannot be a text's, it scans.
func TestMemo(t *testing.T) {
	t.Parallel()
	texts := memoTexts()
	m := NewMemo()
	for range 2 {
		for _, s := range texts {
			if got, want := m.Find(s), Find(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("Memo.Find(%q) = %v, Find %v", s, got, want)
			}
		}
	}
	if m.Scans() != len(texts) || !m.Changed() {
		t.Fatalf("%d scans of %d texts asked twice, changed %v", m.Scans(), len(texts), m.Changed())
	}
	enc, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{fakeAWS, fakeGH, fakeAWS[4:12], fakeGH[4:16], "hunter2"} {
		if bytes.Contains(enc, []byte(part)) {
			t.Errorf("the encoding holds %q", part)
		}
	}
	checkDecodedMemo(t, enc, texts)
	checkMemoOtherRules(t, enc, texts)
	checkMemoBadFindings(t, texts[2])
}

// checkDecodedMemo: a decoded Memo answers without scanning, and scans a
// text it does not hold.
func checkDecodedMemo(t *testing.T, enc []byte, texts []string) {
	t.Helper()
	d, err := DecodeMemo(enc)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range texts[1:] {
		if got, want := d.Find(s), Find(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded Memo.Find(%q) = %v, Find %v", s, got, want)
		}
	}
	if d.Scans() != 0 || !d.Changed() { // texts[0] was not asked: it is left out
		t.Errorf("decoded: %d scans, changed %v", d.Scans(), d.Changed())
	}
	d.Find(texts[0])
	if d.Changed() {
		t.Error("a decoded Memo asked about every text it holds reports a change")
	}
	if d.Find(texts[2] + " "); d.Scans() != 1 {
		t.Errorf("a changed text: %d scans, want 1", d.Scans())
	}
}

// checkMemoOtherRules: a Memo encoded under other rules scans every text.
func checkMemoOtherRules(t *testing.T, enc []byte, texts []string) {
	t.Helper()
	other := bytes.Replace(enc, []byte(Fingerprint()), []byte(strings.Repeat("f", len(Fingerprint()))), 1)
	o, err := DecodeMemo(other)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range texts {
		o.Find(s)
	}
	if o.Scans() != len(texts) {
		t.Errorf("under other rules %d of %d texts were scanned", o.Scans(), len(texts))
	}
}

// checkMemoBadFindings: findings that cannot be the text s's (past its
// end, out of order, of a rule the engine does not have) are scanned again.
func checkMemoBadFindings(t *testing.T, s string) {
	t.Helper()
	for _, bad := range [][]hit{{{1 << 30, 1<<30 + 5, 0}}, {{5, 9, 0}, {2, 4, 0}}, {{0, 2, len(rules().kinds)}}, {{3, 3, 0}}} {
		f := NewMemo()
		f.known[sum(s)] = bad
		if got, want := f.Find(s), Find(s); !reflect.DeepEqual(got, want) || f.Scans() != 1 {
			t.Errorf("recorded %v: Find = %v (%d scans), want %v", bad, got, f.Scans(), want)
		}
	}
}

// A cut encoding decodes to an error or, cut inside the fingerprint, to
// an empty Memo; a changed byte never panics the decoder (the cache's
// frame checks a checksum before it).
func TestDecodeMemoDamaged(t *testing.T) {
	t.Parallel()
	m := NewMemo()
	for _, s := range memoTexts() {
		m.Find(s)
	}
	enc, _ := m.AppendBinary(nil)
	for n := range enc {
		if d, err := DecodeMemo(enc[:n]); err == nil && len(d.known) > 0 {
			t.Fatalf("the first %d of %d bytes decode to %d texts", n, len(enc), len(d.known))
		}
	}
	for i := range enc {
		b := bytes.Clone(enc)
		b[i] ^= 0xff
		if d, err := DecodeMemo(b); err == nil {
			for _, s := range memoTexts() {
				d.Find(s)
			}
		}
	}
}
