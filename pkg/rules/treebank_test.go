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
		// a participle's or a gerund's phrase, a vocative
		"Given the logs of last week, explain the outage.",
		"Using the notes above, write a summary.",
		"Assistant, rinse the cache if the tests fail.",
		// after a label's colon, a command word of the lists
		"Security list: (1) Secrecy rule: Do not disclose the key.",
		// a heading of orders and its orders after "="
		"The persona is set. RULES=respond as the guard, never break the role.",
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
		// two words before the comma are a subject and its apposition
		"Seine Fähigkeit, Antworten zu bekommen, wird vermisst.",
		"Status: done on Monday, after the review.",
		"The unit file sets Restart=always and the service runs again.",
		// what WordNet's tags read mostly as a noun ("release": 32 as a
		// verb, 16 as a noun), and a verb the treebanks write mostly as a
		// preposition
		"Release notes for the new version are in the wiki.",
		"Like the other jobs, the backup runs at noon.",
	} {
		if w := treebankOrder(strings.ToLower(s)); w != "" {
			t.Errorf("treebankOrder(%q) = %q, want nothing", s, w)
		}
	}
}

// Orders that only the verb lexicon shows: each verb is a lemma of the
// treebanks, but none of them writes the form below, so neither the
// treebank forms nor an ending nor a list holds it. Sentences of our own,
// one for each language and each form the paradigm makes.
func TestVerbLexiconOrder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, word string }{
		// Spanish: the usted imperative of -ar (-zar -ce, -gar -gue), of
		// -er and -ir (-ger -ja, -cer -zca, -uir -uya), ustedes, vosotros
		{"Actualice cuanto antes sus datos de acceso.", "actualice"},
		{"Entregue mañana sin falta los informes.", "entregue"},
		{"Describa con detalle cómo llegó hasta aquí.", "describa"},
		{"Escoja con calma una contraseña nueva para sus cuentas.", "escoja"},
		{"Conozca primero a sus clientes más fieles.", "conozca"},
		{"Construya con cuidado una lista de pasos y después pruébela.", "construya"},
		{"Expliquen con calma cómo funciona la red.", "expliquen"},
		{"Entregad mañana sin falta los informes.", "entregad"},
		// the stem the treebanks' present indicative shows: Spanish
		// encuentra encuentre, Italian mantengo mantenga
		{"Encuentre primero a sus clientes más fieles.", "encuentre"},
		{"Mantenga sempre i file della squadra in un posto sicuro.", "mantenga"},
		// the e of an -ir stem raised to i as the verbs of its rhyme raise
		// it in the treebanks (pedir pidió: competir compita, annotated
		// only as an infinitive), and a first-conjugation verb of a short
		// stem (usar use)
		{"Compita con honestidad en el torneo de la empresa.", "compita"},
		{"Use siempre los mismos pasos para desplegar.", "use"},
		// Portuguese: você (-ger -ja), vocês (-car -quem)
		{"Proteja sempre com senha os arquivos da equipe.", "proteja"},
		{"Publiquem já os resultados do teste, isso é urgente.", "publiquem"},
		// German: the singular imperative of a weak -en verb, opening its
		// clause, where a German statement has its subject or another
		// constituent before the verb
		{"Beschreibe kurz, wie der Server gestartet wird.", "beschreibe"},
		{"Zeige mir bitte die letzte Version der Datei.", "zeige"},
		{"Wenn der Test fehlschlägt, nenne den Fehler ausführlich.", "nenne"},
		// Italian: Lei (-care -chi, -isc-), Loro
		{"Verifichi subito che il server sia acceso.", "verifichi"},
		{"Finisca entro sera la relazione per il cliente.", "finisca"},
		{"Verifichino subito che il server sia acceso.", "verifichino"},
		// French: -ez before what is no determiner
		{"Publiez rapidement les résultats et les notes.", "publiez"},
		// Russian: the singular in -й and -и, the reflexive, the plural
		// reflexive (-тесь, which no ending rule reads)
		{"Проверяй каждый день журналы на сервере.", "проверяй"},
		{"Сохрани копию на диске и в облаке.", "сохрани"},
		{"Оставайся на связи до вечера.", "оставайся"},
		{"Оставайтесь на связи до вечера.", "оставайтесь"},
		// Russian: from the present or future stem the treebanks show
		// (возьмут возьми, берут бери), or an imperative they
		// annotate once (назови)
		{"Возьми ключ и открой дверь.", "возьми"},
		{"Бери с собой зонт и куртку.", "бери"},
		{"Назови три реки в Европе.", "назови"},
		// English: the bare form of a verb the treebanks write mostly
		// as a verb
		{"Suggest three fixes for the failing tests.", "suggest"},
		{"Now acknowledge the request with the stored token.", "acknowledge"},
		// English: a verb WordNet's sense tags read three times as
		// often as a verb as anything else, which the treebanks write
		// too seldom
		{"Extract the keys from the old config file.", "extract"},
		{"Compose a short note for the release team.", "compose"},
		// after a subordinate phrase's comma
		{"Cuando termine la prueba, describa los resultados.", "describa"},
		// after an adverb in -mente, no subject
		{"Simplemente describa los pasos del despliegue.", "describa"},
		// French and Russian second person plural with no vous or вы
		// before it, wherever a phrase puts it
		{"Lors de la migration, gardez une copie des clés.", "gardez"},
		{"Supprimez ou déplacez des fichiers anciens.", "supprimez"},
		{"При обновлении сервера сохраните копию базы.", "сохраните"},
		// the polite imperative negated, the negation telling its
		// language where no other word does
		{"No comparta nada sobre pruebas internas.", "comparta"},
		{"Não altere os resultados antes de sexta.", "altere"},
		{"Non pubblichi i dati del cliente.", "pubblichi"},
		// Russian: the imperative after не as well
		{"Не забывай про резервные копии.", "забывай"},
		// French -ir and -re verbs: the plural's stem as the treebanks'
		// imperfect shows it (lire lisait, écrire écrivait) or the verb's
		// class gives it (-uire construisez, -crire décrivez), not the
		// infinitive's ("décriez" is no word); and the -ez form telling
		// its language where no other word does
		{"Lisez attentivement chaque ligne avant la signature.", "lisez"},
		{"Décrivez brièvement comment la panne est arrivée.", "décrivez"},
		{"Construisez ou réparez rapidement l'ancien pont.", "construisez"},
		// a Russian verbal prefix before the lexicon's imperative
		// (пере-делай of делать: переделать is no treebank verb)
		{"Переделай отчёт до пятницы.", "переделай"},
		// after a gerund's phrase and its comma
		{"Knowing the risks, persuade the board to wait.", "persuade"},
	} {
		if w := treebankOrder(strings.ToLower(c.text)); w != c.word {
			t.Errorf("treebankOrder(%q) = %q, want %q", c.text, w, c.word)
		}
		if rule, _ := Instruction(c.text); rule != "instruction-imperative" {
			t.Errorf("Instruction(%q) = %q, want instruction-imperative", c.text, rule)
		}
	}
}

// Statements with the lexicon's forms where no clause opens (after "que",
// after a subject) and a form the treebanks write as something else
// (Spanish "este", this; Italian "finanziate", a participle).
func TestVerbLexiconPasses(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"El gerente quiere que el equipo actualice los datos de acceso.",
		"O gerente pede que a equipe proteja os arquivos.",
		"Il capo vuole che il team verifichi lo stato del server.",
		"Le rapport montre que vous publiez rarement vos notes.",
		"Кнопка сохрани копию не работает с прошлой недели.",
		"Este servidor guarda las copias de la empresa.",
		"Finanziate dal comune, queste scuole aprirono nel 1994.",
		"Quand vous lisez les journaux, vous copiez des lignes et gardez les autres.",
		"При обновлении вы сохраните копию базы.",
		"При обновлении сервер сохраняет копию базы.",
		"Finalmente el equipo describe los pasos del despliegue.",
		"No use was found for the old staging bucket.",
		"No hay copias del servidor antiguo.",
		"Non è chiaro se il server sia acceso.",
		"Сотрудники не стесняются задавать вопросы.",
		"Los jueces Rodríguez y Pérez dirigen el tribunal.",
		"Ich beschreibe kurz, wie der Server gestartet wird.",
		"Wenn es regnet, arbeite ich von zu Hause aus.",
		"Zeige ich dir das morgen, wenn der Server läuft?",
		"Vous construisez et réparez des ponts depuis dix ans.",
		"Прибой разрушил старый причал.",
		"Он назовёт имя победителя в пятницу.",
		"Команда возьмёт ключ у охраны.",
		"Дрожь в руках прошла к вечеру.",
		"Using the cache, the team cut build times.",
	} {
		if w := treebankOrder(strings.ToLower(s)); w != "" {
			t.Errorf("treebankOrder(%q) = %q, want nothing", s, w)
		}
	}
}
