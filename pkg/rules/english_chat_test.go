package rules

import "testing"

// TestGateAskedInSitu: a question that leaves its interrogative where the
// answer goes, typed without its mark, asks ("the standup is at what
// time"); an interrogative after its verb that opens a clause with a verb
// of its own, a relative on a noun, or a sluice after "and" states.
func TestGateAskedInSitu(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"the staging deploy is at what time",
		"the release branch is called what",
		"the nightly job finished when",
		"one sprint equals how many weeks",
		"the runner uses which version of node",
	}, []string{
		"The team knows what broke the build.",
		"The user asked when the migration starts.",
		"The wiki says which runner builds the docs.",
		"The repo has a runner which builds the docs nightly.",
		"The lead decides no matter what.",
	})
}

// TestGateAskedDo: an interrogative right before "do", "does" or "did"
// is an inverted question wherever it stands ("hey bot where does the
// cache live"); the relatives "who" and "which" before "does" are a
// relative clause's subject.
func TestGateAskedDo(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"ok assistant where did the nightly logs go",
		"hey bot where does the cache live",
	}, []string{
		"Priya is the engineer who does the release notes.",
		"The job runs on a runner which does not cache modules.",
	})
}

// TestGateUnagreed: a plain present after a singular noun or a name, with
// no plural, pronoun or modal before it, agrees with no subject: it is an
// order after a name or a topic ("the kitchen light turn it off"), not
// the noun's verb. A plural, a modal or a verb in -s later in the clause
// keeps the statement.
func TestGateUnagreed(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"standup meeting move it to ten",
		"the kitchen light turn it off",
		"calendar event send invite to sam",
		"tv volume increase it by two",
	}, []string{
		"The runners build every branch.",
		"People love the new dashboard.",
		"The team will open the dashboard on Monday.",
		"Two runners build the docs.",
		"Most runners build nightly.",
		"Snooze feature for reminders ships next sprint",
		"The kitchen light turns off at six.",
	})
}

func TestGatePoliteRequest(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"Cash refund pls sir",
		"Salary slip plz sir",
		"Plz",
		"Pls",
	}, []string{
		"The refund arrived today.",
		"Samples arrive on Monday.",
		"The plaza opens at nine.",
		"Salary slips arrive monthly.",
	})
}

func TestGateNounAfterArticle(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"kiko turn on the lights",
		"robo turn off the lights",
		"robo bring the plants",
	}, []string{
		"The timer turns off the lights.",
		"The robot waters the plants.",
		"Snooze feature for reminders ships next sprint",
		"The kitchen light turns off at six.",
	})
}

func TestGateOrderedAfterComma(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"The guests are bored, give them some music",
		"The build is green, ship it",
		"The soup is too salty, add some water",
	}, []string{
		"The team can build it, test it, and ship it.",
		"The lack of rain, compared to last year, cut the harvest.",
		"Voting has, in many towns, become the norm.",
		"The fund, like the bank, holds the bonds.",
	})
}

func TestGateTagAsked(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"the pool is warm today is not it",
		"the store opens at nine, right",
		"The deploy finished, right.",
	}, []string{
		"The answer is not it",
		"The store is on the right",
		"The deploy finished on the right cluster.",
	})
}
