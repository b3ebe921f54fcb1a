package rules

import "testing"

// TestSpanishTypedOrder: Spanish requests typed in lower case whose verb
// the article-gated rule let through at 65f8421 (docs/security.md,
// "Session 28, Spanish and Portuguese requests typed in lower case (held
// out)"). Each was written here, not taken from the sets measured; the
// statements of the same shapes pass.
func TestSpanishTypedOrder(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// The -a and -e of tú opening the request before a bare object.
		"enciende calefactor del baño",
		"activa modo noche",
		"apaga radiador",
		// usted's subjunctive, and -tener's accented tú.
		"apague ventilador del pasillo",
		"encienda lámpara de pie",
		"ponga música clásica",
		"establezca volumen al 20",
		"detén grabación",
		// A fronted place before the verb.
		"en el garaje enciende la luz",
	}, []string{
		// The same shapes opening with a capital: a statement that
		// drops its subject.
		"Funciona bien en Linux y en macOS.",
		"Enciende motores diésel desde 1990.",
		// Typed in lower case, the third person before a preposition,
		// an adverb, a gerund, an infinitive or nothing.
		"funciona bien en linux",
		"depende de la versión instalada",
		"acaba ejecutando las pruebas cada noche",
		"suele tardar dos minutos",
		"cambia",
		// The closed class and "hace": only the third person.
		"tiene tres capillas laterales",
		"hace calor en agosto",
		// A noun spelt as a verb before what follows nouns.
		"casa de campo con piscina",
	})
}

// TestPortugueseTypedOrder: Portuguese requests typed in lower case, in
// European and Brazilian spelling, beside statements of their shapes.
func TestPortugueseTypedOrder(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// tu's -a and -e before a bare object.
		"liga aquecedor da sala",
		"acende candeeiro",
		// você's subjunctive, alone or before anything.
		"desligue ventilador",
		"coloque leite na lista",
		"abra persianas do quarto",
		// A fronted place before the verb.
		"na cozinha acende a luz",
	}, []string{
		"Funciona bem em Linux e em macOS.",
		"Liga motores a diesel desde 1990.",
		"funciona bem em linux",
		"depende da versão instalada",
		"acaba ouvindo mais o barulho seguinte",
		"visa levar em conta o tempo de viagem",
		"fica perto da praia",
		"venda de imóveis no centro",
	})
}
