package rules

import "testing"

// TestItalianTypedOrder: Italian requests typed in lower case whose verb
// the article-gated rule let through at eebc99d (docs/security.md,
// "Session 28, Italian requests (held out)"). Each was written here, not
// taken from Home Assistant's tests or the held-out set; the statements of
// the same shapes pass.
func TestItalianTypedOrder(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// The -i of -ere and -ire: a second person, before a bare
		// object, a number, a preposition or nothing.
		"spegni stufa in camera",
		"accendi ventilatore",
		"aggiungi latte alla lista",
		"metti in pausa la radio",
		"riprendi",
		// -isc- and -gli, and an irregular second person.
		"pulisci cache del browser",
		"togli 10 minuti dalla sveglia",
		"esci dalla modalità ospite",
		// The -a of -are opening the request before a bare object.
		"alza tenda in salotto",
		"imposta luminosità a 40",
		// A fronted place or time before the verb.
		"in camera spegni la lampada",
		"tra dieci minuti, chiudi il cancello",
		"nel bagno abbassa la tapparella",
		// "dove" and "cosa" elided before "è": a question typed
		// without its mark.
		"dov'è il mio telefono",
		"cos'è un certificato radice",
	}, []string{
		// The same shapes opening with a capital: a statement that
		// drops its subject.
		"Funziona su Linux e su macOS.",
		// The third person of -ere and -ire, even typed in lower case.
		"pulisce la cache ogni notte",
		"spegne stufa e luci alle dieci",
		// -a typed in lower case before a preposition or an adverb:
		// also the third person.
		"funziona su linux e su macos",
		"supporta anche i file yaml",
		"torna alla pagina iniziale dopo il login",
		// A plural noun before what follows nouns; a noun after the
		// fronted preposition's article.
		"leggi dello stato e regolamenti",
		"fondi e prestiti per le imprese",
		"in una nota la CGIA di Mestre afferma che l'IVA non aumenterà.",
		// A verb after a fronted place, in the third person.
		"in cucina accende la luce chi arriva per primo",
		// A noun in -a before "di": the head of a noun phrase.
		"programma dei corsi di primavera",
	})
}
