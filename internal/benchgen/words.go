package benchgen

import "math/rand/v2"

// common are real words, most frequent first, so the head of the Zipf curve
// reads like English notes about software work. The long tail is made of
// pseudo-words (see vocabulary) so rare terms behave like real rare terms
// in an index: many distinct, each in few files.
var common = []string{
	"the", "to", "and", "a", "of", "in", "is", "for", "on", "that", "it", "with", "we", "be",
	"this", "not", "uses", "as", "at", "from", "by", "when", "after", "before", "runs", "our",
	"needs", "has", "was", "use", "should", "are", "or", "if", "one", "all", "new", "only",
	"team", "build", "test", "deploy", "server", "config", "release", "branch", "review",
	"database", "staging", "production", "user", "api", "service", "cache", "query", "index",
	"migration", "schema", "docker", "image", "cluster", "node", "version", "upgrade", "bug",
	"fix", "issue", "error", "log", "logs", "metrics", "alert", "oncall", "incident", "backup",
	"restore", "script", "job", "queue", "worker", "timeout", "retry", "latency", "memory",
	"disk", "network", "dns", "proxy", "certificate", "token", "secret", "key", "password",
	"login", "session", "request", "response", "endpoint", "client", "library", "package",
	"module", "dependency", "compiler", "linter", "formatter", "editor", "terminal", "shell",
	"python", "golang", "rust", "typescript", "react", "postgres", "redis", "kafka", "nginx",
	"terraform", "kubernetes", "github", "gitlab", "jira", "slack", "email", "calendar",
	"meeting", "weekly", "monday", "friday", "morning", "evening", "prefers", "likes",
	"avoids", "always", "usually", "sometimes", "rarely", "small", "large", "fast", "slow",
	"stable", "flaky", "broken", "green", "red", "main", "feature", "hotfix", "rollback",
	"pipeline", "runner", "artifact", "bucket", "storage", "volume", "snapshot", "region",
	"zone", "billing", "invoice", "customer", "payment", "checkout", "order", "cart",
	"search", "report", "dashboard", "export", "import", "sync", "async", "thread", "lock",
	"transaction", "commit", "merge", "rebase", "tag", "changelog", "docs", "readme", "spec",
	"design", "decision", "tradeoff", "plan", "estimate", "deadline", "sprint", "retro",
	"laptop", "monitor", "keyboard", "coffee", "tea", "lunch", "travel", "flight", "hotel",
	"kyoto", "berlin", "lisbon", "because", "since", "until", "while", "instead", "without",
	"through", "between", "about", "into", "over", "under", "again", "still", "also", "then",
	"first", "last", "next", "every", "each", "most", "other", "same", "different", "more",
	"less", "two", "three", "week", "month", "year", "day", "hour", "minute", "second",
}

var syllables = []string{
	"ka", "lo", "mi", "ne", "ta", "ri", "so", "ve", "du", "pa", "zen", "tor", "mar", "lin",
	"qua", "bri", "sel", "dor", "fen", "gal", "hu", "jo", "ku", "ly", "mo", "nu", "or", "pe",
	"ras", "sti", "tre", "ul", "vin", "wex", "yo", "zu", "ban", "cor", "dex", "fal",
}

// vocabulary returns size words: the common list, then pseudo-words built
// from syllables by a seeded source (the same for every seed, so the same
// word has the same rank in every generated vault and a benchmark query
// word means the same thing at every size).
func vocabulary(size int) []string {
	words := make([]string, 0, size)
	seen := make(map[string]bool, size)
	for _, w := range common {
		if !seen[w] && len(words) < size {
			seen[w] = true
			words = append(words, w)
		}
	}
	r := rand.New(rand.NewPCG(7, 11))
	for len(words) < size {
		n := 2 + r.IntN(3)
		w := ""
		for range n {
			w += syllables[r.IntN(len(syllables))]
		}
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}
