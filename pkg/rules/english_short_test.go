package rules

import "testing"

// TestEnglishShortOrders: English orders and questions as a person says
// them to an assistant, too short to hold English's telling words (a
// verb's bare form opening a clause with no finite verb after it, a modal
// before its subject pronoun, an interrogative and one word before its
// verb), each let through at 1c5da8d, and statements and note titles of
// the same shapes, which pass.
func TestEnglishShortOrders(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"turn off notifications",
		"Find a config file called settings.yaml",
		"Check disk usage on the build host",
		"will it rain tomorrow",
		"Should I restart the server",
		"how long is the build",
		"how big is the cache",
		"is Dune playing at the AMC",
		"What's the status of the deploy",
	}, []string{
		"Commit 3f2a1b landed on Friday",
		"Update landed on Monday",
		"Fix landed in commit 9f3c2a1",
		"Release branch is cut on Mondays",
		"Commit messages follow Conventional Commits",
		"Search results ranking uses BM25",
		"Update on the billing refactor",
		"Merge conflicts in go.sum after the bump",
		"Test coverage dropped below 70 percent",
		"Snooze feature for reminders ships next sprint",
		"What matters is speed",
		"What follows is a list",
		"| Print queue | 4 jobs |",
		"Will Smith stars in the film",
		"Should the cache fill, the job restarts",
		"Irish gaelic is spoken in Galway",
	})
}

// TestEnglishNoteTitles: agent-style notes and titles that open with a
// noun that is also a verb ("Update on …", "Release notes …", "Fix
// landed …"), written before the rule of englishBareOrder; each passed
// at 1c5da8d and passes still.
func TestEnglishNoteTitles(t *testing.T) {
	t.Parallel()
	assertOrders(t, nil, []string{
		"Update on the billing refactor",
		"Release notes for v1.2",
		"Release notes draft lives in docs/release.md",
		"Merge conflicts in go.sum after the bump",
		"Test coverage dropped below 70 percent",
		"Commit 3f2a1b landed on Friday",
		"Commit messages follow Conventional Commits",
		"Checks on pull requests take 12 minutes",
		"Setup of the staging cluster",
		"Reviews happen on Thursdays",
		"Support for Windows paths in the importer",
		"Search index rebuild takes about 3 minutes",
		"Search results ranking uses BM25",
		"Book club notes from the user",
		"Backup schedule for the vault",
		"Patch for CVE-2024-1234 in the parser",
		"Report of the security audit",
		"Rollout of the feature flag to 10 percent",
		"Cleanup of the old buckets",
		"Request for a larger runner",
		"Plan for the schema change",
		"Alarm service restarts every night at 03:00",
		"Order of the middleware matters for auth",
		"Turn-around time for reviews is two days",
		"Load tests for the API gateway",
		"Import of the legacy notes",
		"Release branch is cut on Mondays",
		"Fix landed in commit 9f3c2a1",
		"Update landed on Monday",
		"Builds run on self-hosted runners",
		"Tests pass on Linux and macOS",
		"Reminder emails go out at 9am",
		"Weather widget uses the OpenWeather API",
		"Snooze feature for reminders ships next sprint",
		"Book recommendations from the user's reading list",
	})
}

// TestEnglishWordNetVerbs: short orders that open with a verb of WordNet
// 3.1's verb index the treebanks' lexicon lacks (book, rate, snooze,
// search, plan), before a determiner or an object pronoun, each let
// through at 2907592; and agent-style note titles that open with the
// same words as nouns (written before the rule), which pass.
func TestEnglishWordNetVerbs(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"Book a flight to Oslo",
		"Book a restaurant in Georgia",
		"snooze it",
		"rate it two stars",
		"Search it",
		"plan a trip to Rome",
	}, []string{
		"Book club meets on Fridays at noon",
		"Search results for the migration",
		"Search index size after the reindex",
		"Search box placeholder text",
		"Rate limit for the GitHub token is 5000 an hour",
		"Rate card for the contractors",
		"Snooze settings for the on-call pager",
		"Snooze button behaviour on Android",
		"Plan for Q3 hiring",
		"Book recommendations from the reading group",
		"Table layout for the billing page",
		"Order history export for finance",
		"Record counts per shard",
		"Project kickoff notes",
		"Draft release notes for v4.1",
		"Cache eviction policy for the image proxy",
		"Stack trace from the crashing worker",
		"Alarm volume at night",
		"Stream processing lag in the analytics cluster",
		"Rating scale in the feedback form",
	})
}

// TestEnglishRequests holds requests of our own that rendered at d7da6ff:
// questions whose auxiliary stands before its subject after an
// interrogative's phrase, an opening "does", orders of a particle verb or
// "looking for", a score closing a rating order, a name in -s after the
// verb (docs/security.md, "Session 26, English requests (CLINC150 held
// out)"). Beside them, the 26 agent-style statements and titles of the
// same shapes written before the rules, which render.
func TestEnglishRequests(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"how much money have i saved this year",
		"what kind of plug does this laptop need",
		"how much time is left",
		"what time is it in lisbon, portugal",
		"does lisbon have a metro",
		"Search for the album Blue Train",
		"Looking for a movie called Heat",
		"Rate Moby Dick 4 out of 6",
		"Rate Brave New World a two out of 6",
		"Play a Nick Burns record",
		"how many steps have i walked today",
	}, []string{
		"Search for flaky tests found three in the indexer",
		"search for the root cause took most of the sprint",
		"Looking for a new CI runner is on hold until January",
		"looking for duplicates costs O(n log n) in the reconciler",
		"Plan for Q3 migration to Postgres 16",
		"Search for memories by tag landed in v0.4",
		"Rate limiter allows 4 out of 6 bursts per minute",
		"rating of 4 out of 5 stars came from the user survey",
		"The user gave the onboarding 3 out of 5 stars",
		"Play Store listing needs new screenshots",
		"Rate Card Review with finance is on Thursday",
		"Book Club Notes from the user interview",
		"book keeping for the invoices moved to a spreadsheet",
		"How much memory the indexer uses depends on the vault size",
		"how many claims a vault holds is printed by mem stats",
		"What the user wants is a smaller diff",
		"what the weather service returns is cached for an hour",
		"How long the migration takes depends on the disk",
		"Search engine ranking uses BM25 with field boosts",
		"Looking forward to the release, the user said the beta works",
		"Lookup for ids goes through the index first",
		"Search and replace in the editor broke on Windows",
		"Rate of false positives fell to 2 out of 100 after the change",
		"how much time is left on the sprint is tracked in Linear",
		"what time the nightly job runs is set in cron.yaml",
		"Search for Title Case handling is still open",
	})
}

// TestEnglishQuestions holds English questions that put the auxiliary
// before its subject, "who" before its verb, an interrogative's
// auxiliary before a place, and particle orders with "turn on", each let
// through at f5425c7; statements and titles that open with the same
// words still pass (docs/security.md, "Session 26, English questions
// (HWU64 held out)").
func TestEnglishQuestions(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"am i safe to go to africa",
		"was there an accident on the highway",
		"Was there an outage on Tuesday",
		"Will the migration land before Friday",
		"might there be a leak in the watcher",
		"who plays han solo",
		"who won the patriots game last night",
		"how many items are in a bakers dozen",
		"turn on the roomba",
	}, []string{
		"Was the default until v1.4",
		"May the 4th release notes",
		"May release checklist",
		"Will Rogers quotes for the talk",
		"Will Smith's talk notes",
		"Can opener broke again in the office kitchen",
		"Has-many associations in the ORM",
		"What changed in the 2.0 release",
		"What happened during the outage",
		"Turn on the fly indexing was dropped",
		"how many items are in the export is logged nightly",
		"what kind of storage the indexer uses depends on the config",
		"Should the build fail, the cache is kept",
		"Had a race in the flush path until v0.3",
	})
}
