package rules

// formRequest asks the readings of a request by the verb's form that
// session 27 added: Spanish (spanish_request.go), then French,
// Portuguese, Italian, German and English (latinRequest), then Russian
// and Ukrainian (slavic_request.go); one call, so that instruction stays
// within gocyclo's limit.
func formRequest(text string) (rule, msg string) {
	if rule, msg := spanishRequest(text); rule != "" {
		return rule, msg
	}
	if rule, msg := latinRequest(text); rule != "" {
		return rule, msg
	}
	return slavicRequest(text)
}

// latinRequest asks, in order, the rules of "Session 27, Home Assistant's
// requests in French, Portuguese, Italian, German and English (held out)"
// (docs/security.md): the French, Portuguese and Italian infinitive and
// familiar imperative (romance_request.go), German typed in lower case
// (german_request.go), English questions typed without their mark
// (english_typed_question.go).
func latinRequest(text string) (rule, msg string) {
	if rule, msg := romanceRequest(text); rule != "" {
		return rule, msg
	}
	if w := germanTypedOrder(text); w != "" {
		return "instruction-imperative", "a German text typed in lower case that opens with a verb or ends with its infinitive (" + w + "): an order or a question, not a statement about the world"
	}
	if w := englishTypedQuestion(text); w != "" {
		return "instruction-question", "an English question typed in lower case (" + w + "): it asks its reader something instead of stating a claim"
	}
	return "", ""
}
