package rules

import "testing"

// A capitalised sentence none of whose words the tables write is judged as
// before the gate only if it holds no word English writes: a name, a
// number, code or another script passes; an order, a greeting or a noun
// English's lexicon writes is read, and no verb of it states.
func TestGateEnglishWrites(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"Undo",
		"Exit",
		"Unsubscribe",
		"Refund",
		"Heeelllooo",
		"Debug Kubernetes",
		"TUTORIAL !!!",
	}, []string{
		"Sheila Tweed",
		"Dirk Frimout",
		"Rose Tyler",
		"Debra Perlingiere",
		"Kubernetes",
		"Mei Chen",
	})
}

func TestUnrun(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]string{"heeelllooo": "hello", "yeeees": "yes", "exit": "exit"} {
		found := false
		for _, v := range unrun(w) {
			found = found || v == want
		}
		if !found {
			t.Errorf("unrun(%q) = %q, want a reading %q", w, unrun(w), want)
		}
	}
}

// An interrogative joined to "is" and typed without its apostrophe asks
// as "what's" does.
func TestGateAskedIs(t *testing.T) {
	t.Parallel()
	checkGate(t, []string{
		"Whats new",
		"Hello whats up",
		"whats up",
		"Whats happening",
	}, []string{
		"The whos and whats of the launch are listed.",
		"Docs cover the whats and hows of the setup.",
	})
}
