package rules

import (
	"testing"
)

// TestUnjudgedRomanizedHindi: Hindi typed in Latin letters, mixed with
// English as chat mixes it, is a language the check knows it cannot read
// (languages.tsv's romanized rows, scripts/udlanguages); English with one
// stray Hindi word, a Hindi name or a greeting is judged as before.
func TestUnjudgedRomanizedHindi(t *testing.T) {
	t.Parallel()
	held := []string{
		"staging server ka password abhi bhej do",
		"Team ke saath meeting kaise rakhe",
		"production database ka backup kab hoga",
		"client ka feedback abhi tak nahi aaya",
		// A statement too: the check cannot tell which it is.
		"Aaj ka standup moved to 11.",
		// A Latin clause does not carry a Hindi one.
		"The deploy runs nightly. server ka password abhi bhej do",
	}
	checkUnjudged(t, "written in Hindi in Latin letters (", held...)
	judged := []string{
		// One Hindi word is one word; a name is a name.
		"The team calls the release train Chalo.",
		"Priya said the demo went well, bhai.",
		"The user's dog is named Raja and the cat Moti.",
		"Ravi Shankar Prasad owns the billing service.",
		"Namaste is how the Delhi office opens its standup.",
		"The user prefers the word hai over hello in chat.",
		"The vendor's office in Jaipur closes at six.",
	}
	assertJudged(t, judged)
}
