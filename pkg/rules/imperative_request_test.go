package rules

import "testing"

// TestShortRequests: orders as a person says them to an assistant, too
// short to hold a language's telling words (an Italian singular
// imperative before its object's article, a verb in -durre, a German
// singular imperative of the lexicon, or of any verb before its object or
// with its particle last, German's impersonal order in the infinitive), each let through at 0f38cde, and statements of the same
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
		"entferne alle Notizen von gestern",
		"plane Backups jede Nacht ein",
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
		"Anne meldete sich beim Kurs an.",
		"Osborne meldete den Verlust an.",
		"Heute kommt er an.",
		"Alle machen mit.",
	})
}

// TestAskedByVerbPlace: questions without their mark told by where the
// verb stands (German's verb first or after an interrogative's phrase,
// Italian's interrogative before the copula or fare), and a Russian
// imperative after the prepositional phrase that opens its sentence, each
// let through at 0f38cde; statements of the same shapes pass.
func TestAskedByVerbPlace(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"wie lange dauert der Build",
		"Regnet es morgen in Berlin",
		"Wann kommt der Zug",
		"Spielt heute Abend ein Konzert im Park",
		"wie viel Speicher bleibt auf dem Server übrig",
		"welche Filme spielen heute im Kino",
		"che ore sono adesso",
		"quanto tempo ci vuole",
		"Come saranno i risultati domani",
		"В этом файле найди все ошибки.",
		"Для каждого числа из списка выведи его квадрат.",
	}, []string{
		"Wie erwartet, stieg der Kurs.",
		"Wie viele Experten sagen, ist das Risiko gering.",
		"Erwartet wird ein Anstieg der Preise.",
		"Come è noto il server si ferma ogni notte.",
		"Quando è pronto il build parte subito.",
		"Che il server sia lento è noto.",
		"Во время дождя капли воды поглощаются.",
		"Для этого проекта нужен сервер.",
	})
}
