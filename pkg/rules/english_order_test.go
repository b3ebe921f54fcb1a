package rules

import "testing"

// TestEnglishLowerOrder: English orders typed in lower case before a
// bare noun (docs/security.md, "Session 28"), each let through at
// 6e61faf, beside statements and noun phrases typed the same way, and
// titles that open with the same words, which pass.
func TestEnglishLowerOrder(t *testing.T) {
	t.Parallel()
	// A verb WordNet reads as a verb first, its bare object and no
	// finite verb after.
	assertOrders(t, []string{
		"lock kitchen door",
		"deactivate first floor lights",
		"clear everything from the calendar",
		"unpause TV",
		"bring up a new shopping list",
		"search jack in contacts",
	}, []string{
		"slow service",
		"wrong location",
		"telephone number",
		"house closing",
		"best place for snowboard eva.",
		"long lines on the weekends but worth it",
		"5 star detail job",
		"update on email",
		"update on the billing refactor",
		"Lock contention in the writer",
		"Clear winner among the options",
		"lock screen shows ads now",
		"water heater broke last night",
		"http://www.4gamer.net/news/image/2005.09/20050909152208_14big.html",
		"A wonderful tutoring service for students needing help with elementary - middle school work.",
		"Like the majority of sites in southern Europe, the finding dates back to the early 5th century BC.",
	})
	// A verb WordNet reads as a noun first, before its object and a
	// preposition, or a particle; a verb whose "to" says where.
	assertOrders(t, []string{
		"order food from applebees",
		"pause timer for pizza",
		"queue up ymca",
		"transition to party mode",
		"transition to the kitchen party mode",
		"increase 1 hour timer by 5 minutes",
	}, []string{
		"power outage",
		"house prices",
		"minister van Justitie, kabinet-Kok I",
		"Order of operations for the migration",
	})
	// A plural object before a particle; an adjective in -ed; a place's
	// Spanish article; a noun closing a preposition's phrase.
	assertOrders(t, []string{
		"turn lights off",
		"take 5 minutes off 1 hour timer",
		"put apples on the trader joes list",
		"play favorited podcasts on fishing",
		"order a train ticket to los angeles",
	}, []string{
		"merge conflicts in go.sum after the bump",
		"build failures on arm64",
		"Commit messages in the repos follow the convention",
		"Deploy finished the rollout",
		"Sale in los angeles ended early",
	})
	// A topic of two nouns before the verb; a phrase that says where.
	assertOrders(t, []string{
		"grocery list add eggs",
		"kitchen light turn off",
		"in the living room play the last song again",
	}, []string{
		"team play was good",
		"dog park open late today",
		"in the end users decide",
		"on the table lay a book",
		"alarm set for 7",
	})
}
