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
