package secrets

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

// The engine translates gitleaks' configuration a rule at a time, on first
// use, from its TOML decoded without viper when gitleaks_default.go was
// generated: every rule it runs, and the global
// allowlists, must be what gitleaks' own loading (viper, then Translate of
// the whole) makes of them.
func TestEngineIsGitleaksConfig(t *testing.T) {
	t.Parallel()
	vc := viperConfig(t)
	if got := gitleaksConfig(); !reflect.DeepEqual(got, vc) {
		t.Fatal("gitleaks_default.go is not gitleaks' configuration as viper decodes it: run `go run gen_gitleaks.go > gitleaks_default.go` in pkg/secrets")
	}
	cfg, err := vc.Translate()
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine()
	byID := map[string]*glRule{}
	kinds := 0
	for _, kd := range e.kinds {
		if kd.gl != nil {
			byID[strings.TrimPrefix(kd.id, "secret-")] = kd.gl
			kinds++
		}
	}
	n := 0
	for id, want := range cfg.Rules {
		if want.Regex == nil || want.SkipReport || len(want.RequiredRules) > 0 {
			if byID[id] != nil {
				t.Errorf("%s: runs, but gitleaks reports no finding of it on a text", id)
			}
			continue
		}
		n++
		g := byID[id]
		if g == nil {
			t.Errorf("%s: not in the engine", id)
			continue
		}
		sameRule(t, id, g, want)
	}
	if kinds != n || len(byID) != n || n < 200 {
		t.Errorf("the engine runs %d of gitleaks' rules (%d ids); gitleaks reports findings of %d", kinds, len(byID), n)
	}
	sameAllowlists(t, "global", e.global(), cfg.Allowlists)
}

// viperConfig is gitleaks' default configuration as gitleaks loads it.
func viperConfig(t *testing.T) config.ViperConfig {
	t.Helper()
	v := viper.New()
	v.SetConfigType("toml")
	var vc config.ViperConfig
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		t.Fatal(err)
	}
	if err := v.Unmarshal(&vc); err != nil {
		t.Fatal(err)
	}
	return vc
}

// sameRule compares the engine's rule g with gitleaks' translation of it.
func sameRule(t *testing.T, id string, g *glRule, want config.Rule) {
	t.Helper()
	got := g.rule()
	if !slices.Equal(g.keywords, want.Keywords) || !slices.Equal(got.Keywords, want.Keywords) {
		t.Errorf("%s: keywords %q, %q; gitleaks %q", id, g.keywords, got.Keywords, want.Keywords)
	}
	if got.RuleID != want.RuleID || got.Regex.String() != want.Regex.String() || got.SecretGroup != want.SecretGroup || got.Entropy != want.Entropy {
		t.Errorf("%s: rule %s %d %v; gitleaks %s %d %v", id, got.Regex, got.SecretGroup, got.Entropy, want.Regex, want.SecretGroup, want.Entropy)
	}
	sameAllowlists(t, id, g.allowlists(), want.Allowlists)
	if g.generic != strings.Contains(id, "generic") || !g.generic && g.relaxed() == nil {
		t.Errorf("%s: generic %v", id, g.generic)
	}
}

func sameAllowlists(t *testing.T, id string, got, want []*config.Allowlist) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d allowlists; gitleaks %d", id, len(got), len(want))
		return
	}
	strs := func(a *config.Allowlist) []string {
		var out []string
		for _, re := range a.Regexes {
			out = append(out, "regex "+re.String())
		}
		for _, re := range a.Paths {
			out = append(out, "path "+re.String())
		}
		// Validate keeps a set of stop words and commits, in a map's order.
		for _, s := range slices.Sorted(slices.Values(a.StopWords)) {
			out = append(out, "stop "+s)
		}
		for _, s := range slices.Sorted(slices.Values(a.Commits)) {
			out = append(out, "commit "+s)
		}
		return append(out, "target "+a.RegexTarget, "condition "+a.MatchCondition.String(), "description "+a.Description)
	}
	for i := range got {
		if g, w := strs(got[i]), strs(want[i]); !slices.Equal(g, w) {
			t.Errorf("%s: allowlist %d is %q; gitleaks %q", id, i, g, w)
		}
		// The joined regexp and the stop-word trie that Validate builds.
		for _, s := range []string{"", "EXAMPLE", "example", "true", "xxxxxxxx", "${TOKEN}", "AKIAIOSFODNN7EXAMPLE"} {
			if g, w := got[i].RegexAllowed(s), want[i].RegexAllowed(s); g != w {
				t.Errorf("%s: allowlist %d allows %q: %v; gitleaks %v", id, i, s, g, w)
			}
			g, _ := got[i].ContainsStopWord(s)
			w, _ := want[i].ContainsStopWord(s)
			if g != w {
				t.Errorf("%s: allowlist %d stop word in %q: %v; gitleaks %v", id, i, s, g, w)
			}
		}
	}
}

// A rule whose every match holds an operator (gitleaks' semi-generic
// shape) is not run, nor cut into by the unglue pass, where its keyword
// starts a run of key characters with no operator around it: a path or a
// slug ("…-password-ae6349"), which seamPairs joins by the dozen. A rule
// with a branch that needs none still runs there, and an operator brings
// the rule back.
func TestWindowsNeedAnOperator(t *testing.T) {
	t.Parallel()
	e := rules()
	kind := func(id string) int {
		k := slices.IndexFunc(e.kinds, func(kd kind) bool { return kd.id == id })
		if k < 0 {
			t.Fatalf("no rule %s", id)
		}
		return k
	}
	generic, atlassian := kind("secret-generic-api-key"), kind("secret-atlassian-api-token")
	if !e.kinds[generic].gl.operator() || e.kinds[atlassian].gl.operator() {
		t.Fatalf("operator: generic-api-key %v, atlassian-api-token %v; want true, false", e.kinds[generic].gl.operator(), e.kinds[atlassian].gl.operator())
	}
	wins := func(text string) map[int][]span {
		var occs []occurrence
		e.words.each(text, func(at, w int) bool { occs = append(occs, occurrence{at, w}); return true })
		return e.windows(text, occs)
	}
	slug := "memory/sofenhu-password-ae6349memory/jira-and-730d00"
	if w := wins(slug); w[generic] != nil || w[atlassian] == nil {
		t.Errorf("%q: windows %v", slug, w)
	}
	if w := wins("password=" + slug); w[generic] == nil {
		t.Errorf("with an operator: windows %v", w)
	}
}
