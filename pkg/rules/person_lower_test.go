package rules

import "testing"

// TestFirstPersonTypedLower: the English "I" typed in lower case, as a
// person types to an assistant, speaks as someone when a verb follows it
// (four of these six let through at 65f0521); "i" as a variable, Italian's article and
// Polish's "and" do not.
func TestFirstPersonTypedLower(t *testing.T) {
	t.Parallel()
	assertOrders(t, []string{
		"i need a table at the harbour grill for four",
		"i just want to know the balance on the joint account",
		"i can't find the deploy key anywhere",
		"i'm looking for a cheaper flight to lisbon",
		"i have a dentist appointment that needs moving",
		"which insurance plan do i have",
	}, []string{
		"The loop resets i after each batch.",
		"The user said i is the loop index.",
		"i dati del progetto sono pronti.",
		"Figure i shows the latency curve of the cold start.",
		"for i in range(10) the build retries.",
		"Section i covers the storage layout.",
	})
}
