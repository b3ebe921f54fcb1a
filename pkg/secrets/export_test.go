package secrets

// BuildEngine builds the rule set afresh, as a new process does on its
// first scan (BenchmarkEngine).
func BuildEngine() { newEngine() }
