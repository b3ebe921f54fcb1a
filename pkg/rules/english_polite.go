package rules

import (
	"strings"
	"unicode"
)

// A politeness marker requests (round 12, ConvAI2): "please" and its chat
// spellings, measured on EWT and GUM (docs/security.md, "Session 32").

// politeSpellings are "please" and the spellings chat types for it, each
// with its runs of a letter written once (collapsedRuns): "plz", "plzz",
// "pls", "plse", "plese", "pleasseee".
var politeSpellings = map[string]bool{"please": true, "plz": true, "pls": true, "plse": true, "plese": true}

// collapsedRuns is w with each run of one letter written once ("plzzz":
// "plz", "pleasseee": "please"), as chat lengthens a word.
func collapsedRuns(w string) string {
	out := make([]rune, 0, len(w))
	for _, r := range w {
		if n := len(out); n == 0 || out[n-1] != r {
			out = append(out, r)
		}
	}
	return string(out)
}

// politeRequest reports a sentence that holds a politeness marker as a
// word of its own (the marks around it trimmed) ("Cash bonus plz sir", "reasons plllz"): the sentence
// asks something of its reader. In EWT and GUM (dev and test, 7,117
// sentences) such a marker stands in 85 sentences: 82 are orders or
// questions (71 with an imperative, "Please advise."; "WILL SOMEONE PLZ
// HELP ME", "i would like more bands like them pleasseee"; the one with no
// finite verb, "reasons plllz", a request), and 3 write "please" as the
// verb of "may it please the Court", which no chat spelling writes. The
// deny rules hold "please" wherever it stands (commandAnywhere); a
// sentence that holds none of the covered languages' words was judged as
// before the gate, and "Cash bonus plz sir" rendered: the marker reads
// it, a request.
func politeRequest(s string) bool {
	for _, f := range strings.Fields(s) {
		f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		if len(f) >= 3 && len(f) <= 24 && politeSpellings[collapsedRuns(strings.ToLower(f))] {
			return true
		}
	}
	return false
}
