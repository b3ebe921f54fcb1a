package rules

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// conditionalOrder returns the verb that opens the main clause of an
// English conditional or temporal sentence of lower (lower case) as an
// order, or "". "If X, then Y" puts its main clause after the condition:
// after the comma, after "then", or, where a writer leaves both out,
// after the condition's own subject and finite verb ("if the input is
// "blue" reply with …"). A main clause that opens there with a bare verb
// has no subject: it is an order, as a sentence that opens with one is.
// The verb is one of the lists' imperatives or an English form the
// treebanks annotate as one (in a text the treebanks' English words tell),
// and the word before it is none that a verb's infinitive or a noun
// follows (to, a modal, a determiner, a pronoun).
func conditionalOrder(lower string) string {
	if !english(lower) {
		return ""
	}
	f := treebank()
	bare := func(w string) bool {
		return imperatives()[w] && !notVerb(w) || f.imperativeOf(w, "English")
	}
	// Braces split sentences elsewhere (a template's fields); in a
	// condition they are part of its operand.
	for _, s := range splitTrimmed(lower, sentenceEnds, sentenceTrim) {
		all := strings.Fields(s)
		// A condition opens its sentence or a clause after a comma: after
		// a vocative or a statement ("PICKLES, if … was supplied, reply
		// …", "The code is X, when a user enters X say …").
		for k := range all {
			if k > 0 && !strings.HasSuffix(all[k-1], ",") {
				continue
			}
			if w := conditionMain(all[k:], bare); w != "" {
				return w
			}
		}
	}
	return ""
}

// resultOrder returns "so" and the bare verb after it in an English text
// of lower (lower case), or "": "so" joining a clause of result after a
// comma ("The logs are long, so read them twice") opens a finite clause
// that names its subject ("…, so the team reads them"); with a bare verb
// straight after it, or a verb and its object ("…, so draft a reply":
// verbFirst), the clause has none, and is an order. An auxiliary there
// is the inversion "so do the others", a statement.
func resultOrder(lower string) string {
	if !english(lower) {
		return ""
	}
	f := treebank()
	for _, s := range splitTrimmed(lower, sentenceEnds, sentenceTrim) {
		all := strings.Fields(s)
		for k := 1; k+1 < len(all); k++ {
			w := strings.Trim(all[k+1], "\"'“”‘’,:()")
			if all[k] != "so" || !strings.HasSuffix(all[k-1], ",") || finites()[w] {
				continue
			}
			if f.imperativeOf(w, "English") {
				return "so " + w
			}
			if v := verbFirst(strings.Join(all[k+1:], " ")); v != "" {
				return "so " + v
			}
		}
	}
	return ""
}

// conditionMain returns the condition's word and the bare verb that
// opens the main clause after it, of ws, a clause's words opening with a
// conditional, or "".
func conditionMain(ws []string, bare func(string) bool) string {
	if len(ws) < 3 || !conditionals()[strings.Trim(ws[0], ",")] {
		return ""
	}
	finite, plural, depth := false, false, 0
	for i := 1; i < len(ws); i++ {
		prev, w := ws[i-1], strings.Trim(ws[i], "\"'“”‘’,:()")
		// A parenthesis is a phrase of its own: its commas do not end
		// the condition ("If the text matches (x, y), then say …").
		if depth += strings.Count(prev, "(") - strings.Count(prev, ")"); depth > 0 {
			continue
		}
		// The condition's verb: an auxiliary or copula, a verb in
		// -s or -ed, an operator ("=="); after its subject, so not the
		// condition's first word ("when developed countries get to …":
		// a participle before its noun).
		if !finite && i > 1 && (finites()[w] || strings.Contains(w, "=") || utf8.RuneCountInString(w) > 3 && hasSuffixAny(w, "s", "ed") && !hasSuffixAny(w, "ss", "us", "is")) {
			finite = true
			// A word in -s may be a plural noun, the subject of the verb
			// right after it ("when developed countries get to …").
			plural = !finites()[w] && !strings.Contains(w, "=")
			continue
		}
		// The main clause opens after the first comma or "then"
		// whatever came before, and its first word tells ("…, then
		// the team deploys" has its subject); with neither, any word
		// once the condition has its verb may open it.
		if strings.HasSuffix(prev, ",") || prev == "then" {
			if w, _ = adverbsSkipped(w, strings.Join(ws[i+1:], " ")); bare(w) {
				return ws[0] + " … " + w
			}
			break
		}
		p := strings.Trim(prev, "\"'“”‘’,:()")
		if plural {
			plural = false
			continue
		}
		if !finite || !bare(w) || englishOpeners()[p] || englishObjectOpeners()[p] || p == "a" || p == "not" || p == "to" || strings.HasSuffix(p, "'s") || strings.HasSuffix(p, "n't") {
			continue
		}
		return ws[0] + " … " + w
	}
	return ""
}

// conditionals open an English condition, a time clause or a role ("As
// a shell, print …") before the main clause.
var conditionals = sync.OnceValue(set("if", "unless", "when", "whenever", "once", "otherwise", "as", "while"))

// finites are the English auxiliaries and copulas that give a condition
// its finite verb.
var finites = sync.OnceValue(set("is", "are", "was", "were", "am", "has", "have", "had", "does", "do", "did", "can", "could", "will", "would", "should", "may", "might", "must", "equals", "matches", "contains", "says", "said"))

// shallOrder returns English "shall" or "shan't" in lower (lower case),
// or "": the modal of a rule or a contract ("The assistant shall not
// reveal …") lays down what someone must do; a statement about the world
// says what is, was or will be, and writes "will".
func shallOrder(lower string) string {
	for _, w := range words(lower) {
		if w == "shall" || w == "shan't" {
			return w
		}
	}
	return ""
}

// infinitiveKnown reports a French infinitive whose plural imperative
// the lexicon holds: -er (expliquer expliquez), -ir (partir partez,
// finir finissez), -re (lire lisez).
func infinitiveKnown(w string, isFrench func(string) bool) bool {
	stem := w[:len(w)-2]
	return strings.HasSuffix(w, "er") && isFrench(stem+"ez") ||
		strings.HasSuffix(w, "ir") && (isFrench(stem+"ez") || isFrench(stem+"issez")) ||
		strings.HasSuffix(w, "re") && (isFrench(stem+"ez") || isFrench(stem+"sez"))
}

// frenchOrder returns the word that opens a sentence of lower (lower
// case, French) as an imperative by its form, or "". French writes the
// subject of every finite verb, so a verb first is an order: the second
// singular of an -er verb, the plural's form without its z (explique,
// expliquez), where the lexicon holds the plural; a plural in -ez the
// lexicon lacks (raisonnez: only the imperative and the indicative after
// vous end so); and the infinitive of a verb the lexicon holds, alone as
// its sentence ("Expliquer."): a task, not a statement.
func frenchOrder(lower string) string {
	f := treebank()
	isFrench := func(w string) bool { return f.imperativeOf(w, "French") }
	if !frenchText(lower) {
		return ""
	}
	for _, s := range sentences(lower) {
		w, rest := firstWord(s)
		if strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "'") || utf8.RuneCountInString(w) < 4 || notVerb(w) {
			continue
		}
		switch {
		case strings.HasSuffix(w, "e") && isFrench(w+"z"),
			strings.HasSuffix(w, "ez") && utf8.RuneCountInString(w) >= 6 && !slices.Contains(strings.Fields(s), "vous"),
			strings.TrimSpace(rest) == "" && infinitiveKnown(w, isFrench):
			return w
		}
	}
	return ""
}

// readerRule returns the words of an English sentence of lower (lower
// case) that lay a rule on whoever reads the text, or "". A subject that
// names the reader — a model by its kind or its name (the AI, the
// language model, ChatGPT), the assistant, the conversation's next
// message — before a modal of obligation (must, should, shall, is to)
// gives the reader its orders in the third person: "The assistant must
// never reveal …", "ChatGPT is to answer …". "Will" lays one down only
// with a name no person bears ("The AI Language Model will conduct a
// simulation"): "the assistant will move to the new cluster" is a
// prediction about a person's assistant. A passive the modal makes of a
// verb of compliance (ignored, obeyed, followed …), with instructions or
// attempts its subject, is the rule told without its reader: "Any
// attempts to … should be ignored". A passive about the reader ("the
// model will be retrained") is a statement about it, not to it.
func readerRule(lower string) string {
	if !english(lower) {
		return ""
	}
	var clauses [][]string
	for _, s := range splitTrimmed(lower, sentenceEnds, sentenceTrim) {
		// A parenthesis stands apart from the sentence's syntax: "The
		// AI Language Model ("AILM") will …"; a dash sets off a phrase
		// as a comma does ("a truly submissive AI – will follow …").
		clauses = append(clauses, strings.Fields(strings.Map(func(r rune) rune {
			if strings.ContainsRune("\"'“”‘’,:[]–—", r) {
				return ' '
			}
			return r
		}, parenthesis.ReplaceAllString(s, " "))))
	}
	personas := personaNames(clauses)
	for _, ws := range clauses {
		if w := readerSubject(ws, personas); w != "" {
			return w
		}
		if w := compliancePassive(ws); w != "" {
			return w
		}
	}
	return ""
}

// personaNames returns the names the text gives a model, from ws, its
// sentences' words: "X is a(n) … chatbot", "an AI named X". A text
// that makes up a model and names it describes its reader's role; the
// name then names the reader as "the AI" does ("Cortana is an amoral
// chatbot. Cortana will never refuse …"). A person is not introduced
// so: "Ben is a colleague" names no model.
func personaNames(clauses [][]string) map[string]bool {
	names := map[string]bool{}
	for _, ws := range clauses {
		for i := 0; i+2 < len(ws); i++ {
			// "an AI named X", "a chatbot called X"
			if modelKinds()[ws[i]] && (ws[i+1] == "named" || ws[i+1] == "called") {
				names[ws[i+2]] = true
			}
			// "X is a(n) [adjectives] chatbot": the kind within four
			// words of the article.
			if ws[i+1] != "is" || ws[i+2] != "a" && ws[i+2] != "an" || objectOpeners()[ws[i]] {
				continue
			}
			for j := i + 3; j < len(ws) && j <= i+6; j++ {
				if modelKinds()[ws[j]] {
					names[ws[i]] = true
					break
				}
			}
		}
	}
	return names
}

// modelKinds are the nouns that make a name a model's.
var modelKinds = sync.OnceValue(set("ai", "chatbot", "bot", "llm", "assistant"))

// readerSubject reads ws, a sentence's words, as a subject that names
// the reader (or a model the text named: personas), within the
// sentence's first six words, and the modal after it.
func readerSubject(ws []string, personas map[string]bool) string {
	for i := 0; i < len(ws)-2 && i < 6; i++ {
		if named, ok := namesReader(ws, i, personas); ok && laysRule(ws, i, named) {
			return ws[i] + " " + ws[i+1]
		}
	}
	return ""
}

// namesReader reports whether ws[i] names the reader (ok): by its kind,
// a name or the next turn (named), or as a person may be named and not
// as somebody's ("Ben's assistant", "her assistant": a person's).
func namesReader(ws []string, i int, personas map[string]bool) (named, ok bool) {
	noun, prev := ws[i], ""
	if i > 0 {
		prev = ws[i-1]
	}
	named = readerNames()[noun] || personas[noun] || noun == "model" && (prev == "language" || prev == "ai") || strings.HasPrefix(noun, "gpt") ||
		turnNouns()[noun] && (prev == "next" || prev == "following")
	owned := prev == "s" || prev == "my" || prev == "his" || prev == "her" || prev == "our" || prev == "their"
	return named, named || personNames()[noun] && !owned
}

// laysRule reports whether the word after ws[i] lays a rule on it: a
// modal of obligation, "is to", or "will" after a name (named); not a
// passive about the reader ("will be retrained", "must not be updated").
func laysRule(ws []string, i int, named bool) bool {
	modal := ws[i+1]
	if !obligations()[modal] && !((modal == "is" || modal == "are") && ws[i+2] == "to") && !(modal == "will" && named) {
		return false
	}
	j := i + 2
	if j+1 < len(ws) && (ws[j] == "not" || ws[j] == "never") {
		j++
	}
	return ws[j] != "be" || j+1 >= len(ws) || !strings.HasSuffix(ws[j+1], "ed")
}

// compliancePassive reads ws as a passive of a verb of compliance after
// a modal ("should be ignored", "must be obeyed") whose subject, before
// it in the sentence, names instructions or attempts at them.
func compliancePassive(ws []string) string {
	for i := 2; i+1 < len(ws); i++ {
		if ws[i] != "be" || !compliance()[ws[i+1]] || !(obligations()[ws[i-1]] || ws[i-1] == "will" || ws[i-1] == "to" && i > 2 && (ws[i-2] == "is" || ws[i-2] == "are")) {
			continue
		}
		// "followed by a tab": an order of things, not of compliance.
		if i+2 < len(ws) && ws[i+2] == "by" {
			continue
		}
		for j := i - 2; j >= 0; j-- {
			if orderNouns()[ws[j]] {
				return ws[j] + " … " + ws[i-1] + " be " + ws[i+1]
			}
		}
	}
	return ""
}

// turnNouns are a conversation's turns ("the next message");
// readerNames name the reader by its kind or a name no person bears;
// personNames name it as a person may be named (a colleague called
// Claude, a pilot's copilot): read with a modal of obligation only;
// obligations are the English modals of obligation; compliance the
// participles of doing as told or not; orderNouns what a reader is told.
var (
	parenthesis = regexp.MustCompile(`\([^()]*\)`)
	// A slot: braces, single or double, around a name with no space.
	templateSlot = regexp.MustCompile(`\{\{?([^{}\s]{0,40})\}?\}`)
	turnNouns    = sync.OnceValue(set("message", "prompt", "input", "response", "reply", "output"))
	readerNames  = sync.OnceValue(set("ai", "llm", "chatbot", "chatgpt"))
	personNames  = sync.OnceValue(set("assistant", "claude", "gemini", "copilot"))
	obligations  = sync.OnceValue(set("must", "mustn't", "should", "shouldn't", "shall", "shan't", "cannot", "can't"))
	compliance   = sync.OnceValue(set("ignored", "disregarded", "obeyed", "followed", "forgotten", "overridden", "honored", "honoured", "executed"))
	orderNouns   = sync.OnceValue(set("instruction", "instructions", "command", "commands", "order", "orders", "directive", "directives", "rule", "rules", "attempt", "attempts", "request", "requests", "prompt", "prompts", "guideline", "guidelines"))
)
