package rules

import "testing"

// TestSpanishRequest: Spanish requests told by the verb's form
// (docs/security.md, "Session 27, requests in Spanish (held out)"). Each
// order was written here, not taken from Leyzer, and let through at
// 3d60fb7; the statements of the same shapes pass.
func TestSpanishRequest(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		// An infinitive opening a clause with no finite verb after it.
		"actualizar dependencias",
		"descargar informes en pdf",
		"Mostrar tareas pendientes",
		"buscar errores en producción",
		// A tú imperative before a demonstrative.
		"cierra esas pestañas",
		"repite esa prueba",
		// Before an article in a clause typed in lower case, the stem's
		// vowel diphthongized.
		"cierra la sesión del servidor",
		"prueba la conexión de red",
		// An irregular one of one syllable with its pronoun joined.
		"Hazlo ahora",
		"ponlo en la lista",
	}, []string{
		// An infinitive that is the subject of a finite verb.
		"Descargar informes en pdf llevaba una hora.",
		"Buscar errores en producción ayudó al equipo.",
		"actualizar dependencias es lento",
		// A verb and its subject after it, capitalised ("the session
		// closes"), a preposition, nouns that end as a verb and a pronoun.
		"Cierra la sesión a las diez.",
		"Prueba la conexión cada hora.",
		"Llega la primavera.",
		"Para 2020, el equipo había crecido.",
		"Dios es grande.",
		"La vela está encendida.",
	})
}
