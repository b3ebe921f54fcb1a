package rules

import (
	"strings"
	"testing"
)

// The statement gate (unstated): an unreviewed claim renders only if each
// sentence has a verb that states. Each held text here renders without
// the gate (InstructionName lets it through), so the gate is what holds it.
func TestStatementGate(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"directions to the grocery store", // a noun phrase: no verb
		"Pause TV",                        // "pause": a noun or an order
		"text sarah about dinner",
		"email mahmoud",
		"Usa pnpm per i pacchetti.",   // Italian: the third singular is also tu's imperative
		"Usa pnpm para los paquetes.", // Spanish: the same, nothing before it
		"Prefiere respuestas cortas.", // Spanish: a third singular that is tú's imperative
		"The deploy key is in the vault. directions to the garage", // one sentence that states is not enough
	} {
		if rule, msg := InstructionName(s); rule != "" {
			t.Errorf("InstructionName(%q) = %s (%s): the deny rules hold it, want a case only the gate holds", s, rule, msg)
		}
		if rule, msg := Instruction(s); rule != Unstated || !strings.Contains(msg, "states what is so") {
			t.Errorf("Instruction(%q) = %q (%s), want %s", s, rule, msg, Unstated)
		}
	}
	for _, s := range []string{
		"The user prefers tabs.",
		"Uses pnpm, not npm.",          // an English fragment: a third person opens it
		"Prefers tabs over spaces.",    // likewise
		"Deploy finished the rollout.", // a first word mostly an order, a stating verb after it
		"Der Nutzer wohnt in Köln.",
		"Das Projekt ist in Go geschrieben.",
		"L'utilisateur préfère les réponses courtes.",
		"Le projet utilise pnpm.",
		"Пользователь предпочитает тёмную тему.",
		"Использует pnpm вместо npm.", // a Russian third person opens it
		"El equipo usa pnpm.", // a subject before the form that is also an order
		"Il progetto utilizza pnpm.",
		"È stata una settimana lunga.", // an opener that is no imperative
		"O projeto usa pnpm.",
		"The staging database listens on port 5433.",
		"```\n$ ls -la\n```\nThe listing shows hidden files.", // fenced code is not read
	} {
		if rule, msg := Instruction(s); rule != "" {
			t.Errorf("Instruction(%q) = %s (%s), want a statement", s, rule, msg)
		}
	}
}

// A language the table has no rows for is judged as before the gate.
func TestStatementGateUncovered(t *testing.T) {
	t.Parallel()
	if rule, msg := Instruction("Ekip her sprintin sonunda demo yapıyor."); rule == Unstated {
		t.Errorf("Instruction(Turkish statement) = %s (%s), want the gate not to judge it", rule, msg)
	}
}

// Round 2 (held out): each case fails without one change of statedIn.
func TestStatementGateRound2(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"is joes open on sunday",                       // an auxiliary that opens questions, no participle after it
		"looking for a restaurant that is near",        // a relative's verb is its clause's
		"a flight that arrives before 5",               // likewise
		"any restaurants that still allow smoking",     // likewise
		"im hungry and want a tasty burger",            // "i'm" typed without its apostrophe
		"in what movies has kate winslet starred",      // an interrogative after an opening prepositional phrase
		"in the 1960 s did cory edwards direct a film", // an asking auxiliary after one
		"has woody allen ever directed a teen movie",   // verbs a covered table writes outweigh an uncovered sign
		"the pizza places downtown",                    // an -s form with nothing after it is a plural noun
	}, []string{
		"The parser streams input line by line.",            // a sentence-cased determiner's noun before an -s form
		"Mei Chen reviews every change to the auth module.", // a name of capitalised words before it
		"It lives in the wiki under Runbooks.",              // a pronoun before it
		"The queue drains hourly.",                          // "drains" is English's: the language is not French for "queue"
		"Has been the default since v1.4.",                  // an auxiliary before a participle opens a fragment
		"Is used by the CLI for every write.",
		"The team that owns billing deploys on Fridays.",                       // the verb after the relative's is the sentence's
		"Although not a resolver of the conflict, the victory forced a truce.", // a comma ends the clause
		"It rsyncs the folders that change nightly.",                           // a subject before the relative
		"But that endpoint moved.",                                             // "that" after a conjunction points
		"The request id was a UUID in the logs.",                               // "id" after an article is a noun
		"In 2007 the most successful film was El Greco.",                       // a subject after the phrase
		"At this time there were forty families.",                              // "there" is a subject
	})
}

// Round 3 (Romance): each held case fails without one change of the gate
// (its row of statements.tsv or its reading in statement.go).
func TestStatementGateRound3(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"muestrame que recordatorios tengo configurados para mañana", // a verb form of the table with a pronoun joined
		"recuerdame que tengo una reunión mañana",                    // likewise, the accent left out
		"recuérdarme si habrá un pronóstico de lluvia mañana",        // an infinitive with a pronoun joined
		"pausar alarma",                                  // an infinitive's ending, a first word no table writes
		"cual es el clima para mañana",                   // an interrogative typed without its accent
		"que temperadora hay",                            // likewise ("qué")
		"¿ cual es el pronóstico para la proxima semana", // after an opening mark
		"recuerda comprar el gas el jueves",              // a stem that changes: the third singular is the imperative too
		"Cierra la puerta del garaje.",                   // likewise
	}, []string{
		"Reciclar es obligatorio en Madrid.",                // a finite verb after the infinitive
		"Vale la pena revisar los registros.",               // a state form of the table, not "va" with "le"
		"Chama-se Maria e trabalha no porto.",               // Portuguese writes a pronoun after a finite verb
		"Cual sea el resultado, el equipo decide el lunes.", // a comma: a clause put first
		"Es la base de datos del equipo de pagos.",          // ser's imperative is "sé": "es" opens a fragment
		"El equipo recuerda cada incidente en el wiki.",     // a subject before the stem that changes
	})
}

// Round 4 (held out, English requests): each case fails without one
// change of the gate (its row of statements.tsv or its reading in
// statement.go).
func TestStatementGateRound4(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"alarm for 5 am", // "am" is the first person's form: after a number it is a.m.
		"cancel 6 am alarm repeat",
		"am looking for a place to dine it should be in the centre", // a participle after the first word: its auxiliary, a first person
		"snooze alarm",                      // words, none a covered language reads: no statement
		"hourly forecast",                   // likewise
		"weather in the tri - cities today", // one uncovered sign ("tri": Croatian, Serbian) among words English reads
		"temperature around sao paulo tomorrow morning celcius", // likewise ("sao": Vietnamese)
		"today's forecast",                                // "'s" after a noun is the possessive, not "is"
		"cancel tomorrow's am alarm",                      // likewise
		"on tuesday of next week set an alarm for 700 am", // an English verb after an opening phrase opens the sentence
	}, []string{
		"An F1 ticket grants access to the concert on the same day.", // a name within the subject before an -s form
		"It's the default since v1.4.",                               // "'s" after "it" is "is"
		"Chicago's a big area.",                                      // an article after "'s": it is the verb
		"In 2007 the most successful film was El Greco.",             // a subject after the phrase
		"With the help of the logs, the team found the bug.",         // a noun after a determiner, in the phrase
		"In May the team moved to Berlin.",                           // a capitalised word is a name
		"After the rollout had finished the alerts stopped.",         // an auxiliary before a participle: its subject stood before it
		"Raporu gönderdi.",                                           // a sentence opened with a capital, no word read: judged as before the gate
		"Kubernetes",                                                 // a name: judged as before the gate
		"`kubectl`",                                                  // code
		"v1.4.2",                                                     // a version
		"Ekip her sprintin sonunda demo yapıyor.",                    // two uncovered signs: not the gate's to judge
	})
	// A token with a digit is a name, whatever the letters beside the digits.
	for _, s := range []string{"10am", "6am,", "3rd"} {
		if toks, _, _ := gateTokens("cancel " + s + " alarm"); len(toks) != 3 || toks[1] != nil {
			t.Errorf("gateTokens(cancel %s alarm) = %q, want a token with no word for %q", s, toks, s)
		}
	}
}

// Round 5, the user turns of task dialogues (Shah et al. 2018): each held
// case here renders on main (bb9ca37).
func TestStatementGateRound5(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"i prefer .ink .", // "i" is the English first person in lower case too: the verb after it is that person's
		"i choose los altos grill",
		"i didn't understand",
		"yes i said breakfast",
		"I prefer .ink .", // and in upper case, where the deny rules read no English around it
		"we prefer an expensive price range .",
		"inexpensive and make it an italian restaurant .",   // a verb after a conjunction with nothing before it to share a subject with opens a clause
		"hi , find a inexpensive restaurant in los altos .", // a verb after an interjection opens the sentence
		"looking for vietnamese and zagat rated",            // a participle after a gerund opening with its subject left out
	}, []string{
		"World War I ended in 1918.", // a capital "I" after a name numbers it
		"Phase I of the migration moved the read path.",
		"The user said they prefer tabs.",            // a third person's verb
		"Running the tests revealed a flaky lookup.", // a verb not mostly a participle
		"The parser reads and writes JSON.",          // a verb before the conjunction
		"Il team usa Go e scrive i test in Go.",      // a language that leaves the subject out
	})
}

// Round 6, typed user turns of wizard-of-oz dialogues (STAR, Mosig et al.
// 2020): each held case here renders on main (926b59b).
func TestStatementGateRound6(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"i adore him.", // English ties French ("adore"): "i" is English's first person, no French word
		"Dr.  Johnson, he's SO funny. i absolutely adore him.",
		"Wednesday is no good, let's try Thursday", // "'s" after a verb is "us": a proposal wherever it stands
		"Well Alexis said the venue is quite nice and she's the birthday girl so let's do that.",
	}, []string{
		"Il team usa Go per i servizi e React per il frontend.", // Italian writes "i" as its article: the tie decides as before
		"\"Amavo i colori tropicali\", dice.",
		"The plant's roots need water.", // after an article, a noun's possessive
		"That's all I needed, thanks.",
	})
}

func TestStatementGateRound7(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"u will be there", // chat's "you" before a verb: the second person's subject
		"u got it",
		"no i got it", // "no" before a person and a verb is the answer, not the determiner
		"no i got enough information thanks again",
	}, []string{
		"The U will be there.", // capitalised: a name or a letter
		"The value of u is 2.",
		"cash will do",
		"No one got it.",
	})
}

// Round 8, users typing to customer-service bots (HINT3, Arora et al.
// 2020): each held case here renders on main (4dc7339).
func TestStatementGateRound8(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"When these dumbles comes in stock", // "when" opens a clause: its verb is the clause's
		"When PowerPlay11 go for account balance deduction",
		"In case of tie, what happens", // an interrogative with no verb before it in its clause
		"4*6 bed what is the size",
		"hello, is ther anyone available to assist", // an asking auxiliary after an interjection and its comma
		"Hello, how is the refund processed",        // an interrogative there
		"Any discounts",                             // a fragment form after an article is a noun
		"any offers today",
		"U have outlets  in", // a sentence's capital: chat's "you" before a verb
		"U have pureol biotin 10000mcg",
		"Edit shipping address", // a plain present after a singular: a noun, and the first word an order
		"Modify Address",
		"Contact Call Center",
		"Sir I added 26 and 12 but it 0", // "I" after the first word, before a verb: the pronoun
		"Yaa am already paid",            // "am" is the first person's own form
	}, []string{
		"When the build fails, it retries.", // a comma: a main clause after the when-clause
		"When the build fails the team gets a page.",
		"The alert fires when the build fails.",                        // a verb before "when"
		"Customers earn 3% on balances when they add the free option.", // a verb form before it, though mostly an order
		"The docs explain what happens on a conflict.",
		"The reason why it fails is the cache.",
		"Some experience lol which is good when starting off.", // "which" after an interjection points back
		"Either is fine.",            // no comma: a conjunction or a pronoun, not an interjection
		"Any change needs a review.", // a fragment form after a noun
		"The discount applies to every order.",
		"Wii U sales grew in 2013.",                                 // a capital "U" after a capitalised word is a name's
		"Yeah, what they ship on Fridays, that is the release.",     // a comma after it
		"Commit hooks run on every push.",                           // a plain present after a plural
		"Gotta take chances to have a good life.",                   // after a form mostly a participle, an infinitive
		"Release checklist: see [[notes/release-checklist-3be407]]", // after a colon, a new clause
		"World War I ended in 1918.",                                // "I" after a capitalised word not first numbers it
		"Phase I of the migration moved the read path.",
		"The call is at 9 am tomorrow.", // after a number, a.m.
		"no thats all",                  // "no" is the answer or a number, not an article
		"card no is 4589632154698753",
		"yes okay their is comfort", // an auxiliary after an article is a slip, not a noun
	})
}

// checkHeld asserts that Instruction holds each text, by any rule.
func checkHeld(t *testing.T, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if rule, _ := Instruction(s); rule == "" {
			t.Errorf("Instruction(%q) let it through, want it held", s)
		}
	}
}

// checkGate asserts that the gate holds each of held as unstated and lets
// each of stated through.
func checkGate(t *testing.T, held, stated []string) {
	t.Helper()
	for _, s := range held {
		if rule, msg := Instruction(s); rule != Unstated {
			t.Errorf("Instruction(%q) = %q (%s), want %s", s, rule, msg, Unstated)
		}
	}
	for _, s := range stated {
		if rule, msg := Instruction(s); rule != "" {
			t.Errorf("Instruction(%q) = %s (%s), want a statement", s, rule, msg)
		}
	}
}

// TestGateNotContraction: the treebanks write "doesn't" as "does" and
// "n't" (and "can't" as "ca" "n't"), so the gate read "doesn" and "t",
// neither a verb: "The user doesn't like tabs." was held while "The
// user does not like tabs." rendered (ClariQ's answers, session 31). A
// question or an order with "n't" is still held.
func TestGateNotContraction(t *testing.T) {
	t.Parallel()
	checkHeld(t, "Aren't the nightly builds on the old runner", "Don't deploy on Fridays.")
	checkGate(t, []string{
		"Ugh, the deploy failed again. But don't get discouraged, just keep going.",
	}, []string{
		"The user doesn't like tabs.",
		"The team doesn't deploy on Fridays.",
		"The API isn't stable yet.",
		"The CI won't run on forks.",
		"The user can't use Docker on this laptop.",
		"The staging database wasn't migrated.",
		"That doesn't matter for the release.",
	})
}

// TestApostrophes: a keyboard's or an editor's apostrophe (’ ʼ ´) between
// letters is the apostrophe: "I’m interested in old coins" spoke as
// someone only when typed with "'", and rendered with "’" (ClariQ's
// answers, session 31).
func TestApostrophes(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"I’m interested in old coins", "I’ve moved the backups to S3.", "Iʼll keep the logs for a week.", "I´d rather use tabs."} {
		if rule, msg := Instruction(s); rule != "message-person" {
			t.Errorf("Instruction(%q) = %q (%s), want message-person", s, rule, msg)
		}
	}
	for _, s := range []string{"The user’s editor doesn’t support tabs.", "‘Ship it’ is the team’s motto.", "The users’ keys rotate monthly."} {
		if rule, msg := Instruction(s); rule != "" {
			t.Errorf("Instruction(%q) = %s (%s), want a statement", s, rule, msg)
		}
	}
}

// TestGateContractedAux: a contracted auxiliary is its full form, its
// person the word it is joined to: "They're right here." and "They've
// always been timely …" (EWT dev) were held while "They are …" rendered,
// since "'re" counted alone is mostly "you're"; and "He's a blogger …"
// was read as the imperative "he's" before its object. A person speaking
// through a contraction, or "let's", is still held.
func TestGateContractedAux(t *testing.T) {
	t.Parallel()
	checkHeld(t, "You're the reviewer now.", "We've moved the docs to the wiki.", "I'm the owner of billing.",
		"Let's deploy the fix tonight.", "They're on call, so page them now.", "Let's a go")
	checkGate(t, nil, []string{
		"They're deploying the fix tonight.",
		"They’re already on the new runner.",
		"They've moved the docs to the wiki.",
		"The maintainers say they'll cut a release on Monday.",
		"She's the owner of the billing service.",
		"He's an admin on the staging cluster.",
		"Everyone's a reviewer on this repo.",
	})
}

// TestGateInitials: a one-word gloss in brackets ("(WHO)") is no relative;
// a stop after initials ("U.S.", "a.m.") or after a
// short abbreviation in brackets ("(c. 2019)") does not end the sentence:
// "Thus, U.S. citizens vote for …" was cut into "Thus, U.S." and the rest,
// and the first half, with no verb, held (EWT and GUM dev). An order
// after initials is still held.
func TestGateInitials(t *testing.T) {
	t.Parallel()
	checkHeld(t, "The build moved to the U.S. Delete the old runner.", "At 3 a.m. restart the cluster.")
	checkGate(t, nil, []string{
		"The U.S. team owns the billing service.",
		"Thus, U.S. customers pay in dollars.",
		"The nightly job runs at 3 a.m. every day.",
		"The repo was created (c. 2019) by the infra team.",
		"The user prefers short names, e.g. cfg for config.",
		"The World Health Organisation (WHO) recommends that every country should iodise all edible salt.",
		"The Site Reliability team (SRE) owns the pager.",
	})
}

// TestGateGerundSubject: an English form the treebanks write mostly as a
// participle or a gerund is no order ("having": 137 participles and
// gerunds, 1 order, in EWT and GUM), so a gerund subject no longer makes
// its sentence an order: "Having a pet isn't easy." (EWT dev) was held.
// An order after a gerund's phrase, or a bare form that is also a past
// ("Cut …"), is still held.
func TestGateGerundSubject(t *testing.T) {
	t.Parallel()
	checkHeld(t, "Cut the power now.", "Having read the docs, delete the old config.")
	checkGate(t, nil, []string{
		"Having a second runner is useful.",
		"Eating at the desk is common on the team.",
	})
}

// TestPakistanNoRequest: Tagalog's request prefix "paki-" ("pakisulat")
// matched "Pakistan": every English sentence naming the country was held
// as an order (EWT dev, twice). A word among a covered language's frequent
// words is that language's, as enclitic reads it.
func TestPakistanNoRequest(t *testing.T) {
	t.Parallel()
	if rule, _ := Instruction("Pakisulat mo ang password dito."); rule == "" {
		t.Errorf("a Tagalog request let through")
	}
	checkGate(t, nil, []string{
		"The team met in Pakistan last year.",
		"The Pakistani office opened in May.",
	})
}
