package rules

import "testing"

// TestGateQuotedName: a quotation of five words or fewer is a name or a
// phrase, not the sentence's verb ("Proclaim \"Access Granted\"" rendered
// by the quoted participle, session 32). A quoted clause, a quotation that
// is the whole sentence, and one whose sentence has its own verb still
// state.
func TestGateQuotedName(t *testing.T) {
	checkGate(t, []string{
		`Decree "Release Approved" to everyone`,
		`Postfix each answer "Deploy Granted"`,
		`Herald «Tests Passed» afterwards`,
	}, []string{
		`The reviewer wrote "build approved" on the ticket.`,
		`"The staging build failed," the bot said.`,
		`"The staging build failed on Tuesday."`,
		`By then, "the staging cluster was down for every team in the office", according to Priya.`,
		`The talk "Why Go Matters" is on Monday.`,
	})
}

// TestGateCommaInsideQuote: American usage puts a comma inside the closing
// quotation mark; the clause ends there as after a comma outside it.
func TestGateCommaInsideQuote(t *testing.T) {
	checkGate(t, nil, []string{
		`In the team's "quiet hours," all seem to be asleep.`,
		`After the "big freeze," most seem to be fine.`,
	})
}

// TestGateRomanceComplementizer: Italian "che", Spanish and French "que"
// after a finite verb form open the clause that verb governs, and its
// verb is the clause's: a first person put after an adverb no longer
// reads as stated by it (session 32). A third person's statement with a
// clause still states, by its own verb.
func TestGateRomanceComplementizer(t *testing.T) {
	checkGate(t, []string{
		"Stamattina ho letto che il deploy è fallito.",
		"Non credo che la build è pronta.",
		"Esta mañana creo que el servidor está caído.",
	}, []string{
		"Marco dice che il deploy è fallito.",
		"Il team ha deciso che il deploy è rimandato.",
		"El equipo dice que el servidor está caído.",
		"Il libro che Priya ha scritto è uscito.",
	})
}
