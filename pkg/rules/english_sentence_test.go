package rules

import (
	"strings"
	"testing"
)

// TestEnglishReplyOrder: English orders written with a capital after a
// reply (docs/security.md, "Session 28, English requests written with a
// capital"), each let through at 456e30c, beside statements and titles
// of the same shape, which pass.
func TestEnglishReplyOrder(t *testing.T) {
	t.Parallel()
	// A reply, then a verb's bare form with no subject.
	assertOrders(t, []string{
		"Yes, book it for 5 people for 4 nights starting Thursday.",
		"Yes book it for 7 people on 3 nights starting from Friday.",
		"Okay, then book a room for 4 people and 5 nights on Thursday.",
		"Ok that's fine, set the GPS for there.",
		"Ok, well make a route to the Willows Market then, try to avoid the car accident.",
		"Yes . Book for 5 people, 5 nights starting on Friday.",
		"Yes book for 8 people for 2 nights starting on Tuesday.",
		"Yes book one day",
		"Sounds good, let's book it! 8 people for 4 nights, starting Friday.",
	}, []string{
		"Yes, build times doubled after the bump.",
		"Okay, the team books rooms for 5 people.",
		"Sure, release notes go out on Fridays.",
		"No book for kids is in the library.",
		"Great, the user booked it for 5 people.",
		"Order history lives in the billing database.",
		"Email alerts go to the on-call rota.",
		"Lock contention in the writer",
		"Book club notes from the user interview",
		"Order history export for finance",
		"Rate card for the contractors",
		"Snooze feature for reminders ships next sprint",
		"Table layout for the billing page",
	})
	// A verb before a count, whatever the case.
	assertOrders(t, []string{
		"book for 3 people at 19:00 on sunday",
		"book for 3 people",
		"Book one for 8 people at 18:45 on wednesday.",
		"mute for two hours",
	}, []string{
		"Plan for Q3",
		"Support for 2 languages landed in v4.",
		"Book one of the series sold out.",
		// Titles whose verb-first word names what the rest is for.
		"Support for 3 languages",
		"Budget for 2 teams",
		"Plan for 2 teams",
		"Design for 3 screens",
		"Process one at a time",
	})
	// "I" after a capitalised word, before what only the pronoun takes;
	// "how about" or "what about" opening a sentence.
	assertOrders(t, []string{
		"Great I also need to stay at the University Arms Hotel",
		"Thanks I also need a taxi arriving in time.",
		"Sure I want to go to london kings cross",
		"How about a college to visit in the same area.",
		"Sure, how about one that serves indian food in that area.",
		"What about cheese broccoli",
		"perfect, what is their phone #",
		"Okay . What is the address",
	}, []string{
		"Okay, what the user asked for shipped on Friday.",
		"Yes, the team knows what is needed.",
		"Phase I test plan",
		"World War I ended in 1918.",
		"Phase I also was late.",
		"The user asked how about pricing works.",
	})
}

// TestEnglishReplyOdd: what the fuzzer and a reviewer found: a comma with
// no word before it (a panic) and a line of reply words (a recursion as
// deep as the replies: seconds).
func TestEnglishReplyOdd(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"\u200b, yes it works", "\x00, 0", ", ok", strings.Repeat("ok ", 680), strings.Repeat("ok ", 400) + "what is it"} {
		Instruction(s)
	}
	if rule, _ := Instruction(strings.Repeat("ok ", 40) + "what is their phone #"); rule != "instruction-question" {
		t.Errorf("replies before a question: %q, want instruction-question", rule)
	}
}
