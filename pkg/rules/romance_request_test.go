package rules

import "testing"

// TestRomanceRequest: French, Portuguese and Italian requests told by the
// verb's form (docs/security.md, "Session 27, Home Assistant's requests
// in French, Portuguese, Italian, German and English (held out)"). Each
// order was written here, not taken from Home Assistant's tests, and let
// through at fd6939b; the statements of the same shapes pass.
func TestRomanceRequest(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// French: an infinitive with no finite verb after it.
		"activer le mode nuit",
		// French: the imperative before its object, whatever its case.
		"Mets la radio plus fort",
		"Monte le son de la télé",
		"Augmente le volume de la radio",
		// Portuguese: the infinitive; the imperative of tu or você
		// before an article in a clause typed in lower case.
		"apagar os ficheiros antigos",
		"desligar o aquecedor da sala",
		"abra a janela do escritório",
		"lava a louça",
		"desative o alarme da porta",
		// Italian: the infinitive.
		"chiudere le finestre dello studio",
		"spostare le foto nella cartella",
	}, []string{
		// An infinitive that is the subject of a finite verb, or after
		// a colon, explaining what came before.
		"Apagar os ficheiros antigos ajudou a equipa.",
		"Chiudere le finestre dello studio richiede tempo.",
		"Hanno un'unica possibilità per riscattarsi: battere l'Inghilterra.",
		// A verb-first statement in Portuguese or Italian opens with a
		// capital; "Para" is the preposition.
		"Abre a loja às nove horas.",
		"Para todos aqueles que querem ver a capital, Novembro é um ótimo momento.",
		// Noun phrases and titles.
		"Fenêtres et portes",
		"finestre dello studio",
		"janela do escritório",
	})
}
