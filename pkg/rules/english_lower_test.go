package rules

import "testing"

// TestEnglishTypedLower: English requests typed in lower case, as a
// person types them to an assistant (docs/security.md, "Session 27"),
// each let through at f9e8897, beside statements typed the same way and
// note titles that open with the same words, which pass.
func TestEnglishTypedLower(t *testing.T) {
	t.Parallel()
	// A modal, or "is"/"are", before a subject that is no verb.
	assertOrders(t, []string{
		"can penguins swim",
		"will costco open on sunday",
		"could dinner be moved to friday",
		"is python a good first language",
		"was pluto reclassified",
	}, []string{
		"will try harder next time",
		"could use some help with the deploy",
		"would definitely recommend this place",
		"should be fine",
		"can totally relate",
		"was such a fun day",
		"is also a good option",
		"is worth a try",
		"was really tired after the trip",
		"Can opener broke again",
		"Will Smith's talk notes",
	})
	// "how", a phrase, the copula and a determiner.
	assertOrders(t, []string{
		"how far away is the airport",
		"how far away was the shop",
	}, []string{
		"How far away the office is matters for the commute",
	})
	// An order after a name or an interjection; a numeral in letters
	// opening the object.
	assertOrders(t, []string{
		"bot turn the lights off",
		"hey play some jazz",
		"ok order two pizzas",
		"order two pizzas",
	}, []string{
		"people love the new dashboard",
		"kids love the show",
		"thick cut bacon or sausages",
		"money transfer request",
		"mom put the kids to bed",
		"dad fixed the sink",
		"Order two of the spare disks arrived today",
	})
}

// TestEnglishTypedLowerMore: the second round of "Session 27": a particle
// verb before a bare noun typed in lower case, two verbs joined, an
// interjection and a name before an order, a subject that is also a verb
// before "be", and a longer interrogative's phrase; each let through at
// 1354691, beside statements and titles that pass.
func TestEnglishTypedLowerMore(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"turn on porch light",
		"search for vegan bakeries nearby",
		"Search for something cheaper",
		"reshuffle and play some jazz",
		"hey siri dim the lights",
		"can cloud storage be shared",
		"whats fifteen percent of forty",
		"whos on call tonight",
		"who sang yesterday",
		"how many cups of flour are there",
	}, []string{
		"looking for duplicates costs O(n log n) in the reconciler",
		"Search for Title Case handling is still open",
		"Turn on rate limiting landed in v2",
		"search for the root cause took most of the sprint",
		"hey siri is a voice assistant",
		"can opener broke again",
		"will try to be there",
	})
}

// TestEnglishTypedLowerThird: the third round of "Session 27": an order
// after the one comma of a short reply or call, "has" before its subject
// and a participle, "what" before a finite verb with no auxiliary after;
// each let through at 0b320ab, beside statements that pass.
func TestEnglishTypedLowerThird(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"that's enough, stop the music",
		"siri, mute the speakers",
		"has dana reviewed the patch",
		"what causes hiccups",
		"what happened at the game last night",
	}, []string{
		"the build failed twice, then passed",
		"what happened was a mess",
		"has been a long week",
		"great dinner, loved the dessert",
		"What changed in the 2.0 release",
		"the sauce is the best and the staff are friendly and the place is clean, keep them coming",
	})
}
