package rules

import "testing"

// TestGermanTypedOrder: German requests typed in lower case, and English
// questions typed in lower case without their mark (docs/security.md,
// "Session 27, Home Assistant's requests in French, Portuguese, Italian,
// German and English (held out)"). Each order was written here, not taken
// from Home Assistant's tests, and let through at fd6939b; the statements
// of the same shapes pass.
func TestGermanTypedOrder(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// A verb's stem, with its -e or without it, opening the text.
		"fahr im Hof die Rollos runter",
		"halt im Büro die Uhr an",
		"aktiviere im Büro die Heizung",
		"stoppe im Flur die Musik",
		"beende im Büro sämtliche Timer",
		// A form in -t before "sich" or with the particle ending it.
		"befindet sich jemand im Büro",
		"schaltet im Flur das Licht aus",
		// An article opening the text, an infinitive ending it.
		"die Heizung im Büro auf 20 Grad stellen",
		"die Fenster im Bad schließen",
		// English questions typed without their mark.
		"is anyone in the office",
		"how much money is left on the card",
	}, []string{
		// A capital, a finite verb after the first word, a number first,
		// a comma after a plural subject and its verb.
		"die Kinder spielen",
		"anfang Oktober nutzte das Team den Raum.",
		"nicht jeder kann darüber stehen.",
		"1538 warnte die Inquisition ihre Mitglieder.",
		"die Richtlinien bestimmen, dass niemand Zugang hat.",
		"premier: Guy Verhofstadt",
		// A question that is the subject of a statement.
		"how much time is left on the sprint is tracked in Linear",
		"is anyone's guess who wins",
	})
}
