package rules

import "testing"

// TestImperativeClass: orders told by a class of forms (an Italian
// imperative with its pronoun joined, a French -ifier verb, a Russian
// prefixed verb read by another prefix of the same stem), each let through
// at 00e243e, and statements of the same shapes, which pass.
func TestImperativeClass(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// Italian: imperative + pronoun.
		"Ricordami di aggiornare la pagina del progetto venerdì.",
		"Spiegamelo con parole semplici.",
		"Ricordamelo domani mattina.",
		"Fammi vedere il grafico delle vendite.",
		"Leggimi le note della riunione.",
		"Mostrami le chiavi salvate nel file.",
		// French -ifier, singular, and plural after a participle's phrase.
		"Classifie le texte suivant.",
		"Classifie le message selon son urgence.",
		"Étant donné la liste ci-dessous, classifiez si chaque ligne est un doublon.",
		// Russian: до- read by за- or по- of the same stem.
		"Дополни таблицу недостающими значениями.",
		"Дополни ответ примерами из документации.",
	}, []string{
		"Ricordarmi le scadenze è compito del calendario.",
		"I dettagli della configurazione sono nel file.",
		"Le radici del progetto risalgono al 2019.",
		"Dalla pagina principale si accede alle impostazioni.",
		"La classification des tickets se fait chaque lundi.",
		"Le modèle simplifié tourne sur un seul serveur.",
		"Вблизи от сервера стоит резервный узел.",
		"Дополнительные значения хранятся в таблице.",
	})
}
