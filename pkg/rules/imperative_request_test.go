package rules

import "testing"

// TestShortRequests: orders as a person says them to an assistant, too
// short to hold a language's telling words (an Italian singular
// imperative before its object's article, a verb in -durre, a German
// singular imperative of the lexicon, German's impersonal order in the
// infinitive), each let through at 0f38cde, and statements of the same
// shapes, which pass.
func TestShortRequests(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"Imposta la sveglia alle sette.",
		"Pulisci la cartella temporanea",
		"Dai un voto al documento",
		"Riproduci qualcosa di rilassante",
		"Spiele etwas Musik",
		"Finde kreative Lösungen",
		"alle Notizen löschen",
		"Zähler für heute zurücksetzen",
		"Erinnerung für morgen früh stellen",
	}, []string{
		"Leggi regionali e nazionali si sovrappongono.",
		"Parti del motore sono state sostituite.",
		"Die Kinder spielen im Garten.",
		"Die Preise steigen.",
		"Kinder spielen",
		"Er wird morgen kommen.",
		"Das Team hat beschlossen, die Tests zu löschen.",
		"Neue Regeln für Mieter gelten ab Januar.",
		"Im Sommer fallen die Preise.",
	})
}
