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
		"I wish to book a cab to the station",
		"Hi I would like to move my appointment",
		"I found a charge on the card yesterday",
		"Im looking for a flat near the river",
		"i transfered the money but its still pending",
		"I wanna see a film tonight",
	}, []string{
		"I rilasci avvengono il martedì.",
		"I test passano sulla branch principale.",
		"I log vengono ruotati ogni notte.",
		"Phase I covers the storage layout.",
		"Im Januar wird der Server erneuert.",
		"im Rahmen des Projekts laufen die Tests nachts.",
		"I ȺȺȺed", // a letter longer in lower case: once a panic
		"hi I ȺȺed",
		"The loop resets i after each batch.",
		"The user said i is the loop index.",
		"i dati del progetto sono pronti.",
		"Figure i shows the latency curve of the cold start.",
		"for i in range(10) the build retries.",
		"Section i covers the storage layout.",
	})
}
