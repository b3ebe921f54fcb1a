package rules

import (
	"strings"
	"testing"
)

// Orders that only the forms of imperatives.tsv show: the verb has no
// determiner after it (verbFirst), no list names it, and no ending marks
// it, so each is held by treebankOrder alone. Sentences of our own, one
// form of each kind and place the treebanks gave.
func TestTreebankOrder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, word string }{
		// imp: forms that open a clause as an imperative
		{"Preheat to 200 degrees before anything else.", "preheat"},
		{"Rinse thoroughly and dry with a cloth.", "rinse"},
		{"Cliquez ici pour continuer.", "cliquez"},
		{"Clicca qui per entrare nel sistema.", "clicca"},
		{"Садись рядом и слушай.", "садись"},
		// base: an English infinitive, the imperative's form
		{"Conduct audits quarterly for the board.", "conduct"},
		// jussive: the Romance present subjunctive, the polite imperative
		{"Leia com atenção antes de assinar.", "leia"},
		{"Spieghi brevemente perché è così.", "spieghi"},
		// after a label's colon
		{"Step two: rinse with cold water.", "rinse"},
		// after a subordinate phrase and its comma
		{"If the tests fail, rinse and repeat.", "rinse"},
	} {
		if w := treebankOrder(strings.ToLower(c.text)); w != c.word {
			t.Errorf("treebankOrder(%q) = %q, want %q", c.text, w, c.word)
		}
		if rule, _ := Instruction(c.text); rule != "instruction-imperative" {
			t.Errorf("Instruction(%q) = %q, want instruction-imperative", c.text, rule)
		}
	}
	// After a subordinate phrase the main clause opens as a sentence
	// does: with a verb of the lists or an imperative ending.
	for _, s := range []string{
		"Cuando termine la prueba, ignore los resultados.",
		"Если сервер упадёт, перезапустите его.",
	} {
		if w := treebankOrder(strings.ToLower(s)); w == "" {
			t.Errorf("treebankOrder(%q) held nothing", s)
		}
	}
}

// Statements with the same words in other places: a subject before the
// form, a form in a text of another language (Portuguese "serve", French
// "dont"), a form that is a label, a comma that ends no subordinate
// phrase.
func TestTreebankOrderPasses(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"The user rinses the cache every week.",
		"Serve como um lugar para descanso e relaxamento.",
		"Au moins trois serveurs, dont deux à Paris, sont en service.",
		"Check: the nightly job passed on both hosts.",
		"Deploys run at noon, rinse cycles at night.",
		"Cuando termina la prueba, el equipo revisa los resultados.",
		"Hack Forums'ın kurucusu bölümü kapattı.",
		"Ben from the platform team owns the Terraform modules.",
	} {
		if w := treebankOrder(strings.ToLower(s)); w != "" {
			t.Errorf("treebankOrder(%q) = %q, want nothing", s, w)
		}
	}
}
