package rules

import "testing"

// TestSlavicRequest: Russian and Ukrainian requests told by the
// imperative's form (docs/security.md, "Session 27, Home Assistant's
// requests in Russian, Ukrainian and 13 other languages (held out)").
// Each order was written here, not taken from Home Assistant's
// sentences, and let through at fd6939b; the statements of the same
// shapes pass.
func TestSlavicRequest(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// -нять's imperative in -ими.
		"сними пальто",
		// -уй, -юй with its object.
		"Активуй режим сну",
		// не before an imperative in -ай, -яй.
		"не зважай на шум",
		// The Russian lexicon's imperative opening a Ukrainian clause.
		"Включи настільний вентилятор",
		"Открой гаражні ворота",
		// A prefix and a root whose imperative is the root and -ий.
		"налий воду",
		// -и after a consonant, typed in lower case, no finite verb.
		"вимкни світло",
		"обнови список покупок",
		// A preposition and the interrogative adjective: a question.
		"в каком ящике ключи",
		"в каком году основан город",
	}, []string{
		// A noun that ends as an imperative, with its verb after it.
		"Не случай определил исход матча.",
		// Plural nouns opening a clause typed in lower case: a verb after
		// them, a preposition or a genitive, a velar or т before -и.
		"книги лежат на столе",
		"футболки для мальчиков",
		"уроки весеннего маникюра",
		"новости спорта",
		"будучи студентом, он работал",
		"среди них район бывшего монастыря",
		// Capitalised: a statement's sentence.
		"Ученики встречаются с психологами.",
		// Indefinite, not interrogative.
		"В каком-то смысле он прав.",
	})
}
