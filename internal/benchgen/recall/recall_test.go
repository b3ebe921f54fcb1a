package recall

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A made-up conversation in LoCoMo's shape (never LoCoMo's own text).
const conversation = `{
  "speaker_a": "Ana", "speaker_b": "Bo",
  "session_2_date_time": "9:05 am on 3 June, 2023",
  "session_2": [
    {"speaker": "Ana", "dia_id": "D2:1", "text": "The boat is blue."},
    {"speaker": "Bo", "dia_id": "D2:2", "text": "Nice!", "blip_caption": "a photo of a blue boat"}
  ],
  "session_1_date_time": "1:56 pm on 8 May, 2023",
  "session_1": [{"speaker": "Bo", "dia_id": "D1:1", "text": "I moved to Oslo."}],
  "session_3_date_time": "2:00 pm on 9 July, 2023",
  "qa": [
    {"question": "What colour is the boat?", "answer": "blue", "evidence": ["D2:1; D2:2"], "category": 4},
    {"question": "Where did Bo move?", "answer": 2023, "evidence": ["D1:1"], "category": 2},
    {"question": "What is Bo's cat called?", "adversarial_answer": "Tom", "evidence": ["D1:1"], "category": 5},
    {"question": "No evidence?", "answer": "x", "evidence": [], "category": 1}
  ]
}`

func TestLoadWriteMeasure(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "locomo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "7.json"), []byte(conversation), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	if c.Name != "7" || len(c.turns) != 3 || len(c.questions) != 2 {
		t.Fatalf("loaded %+v", c)
	}
	if c.turns[0].DiaID != "D1:1" || c.turns[2].body() != "Bo: Nice! [shares a photo of a blue boat]" {
		t.Fatalf("turns in time order with captions: %+v", c.turns)
	}
	if got := c.turns[2].At.Sub(c.turns[1].At).Seconds(); got != 10 {
		t.Fatalf("turns are %vs apart, want 10", got)
	}
	if want := []string{"memory/d2-1.md", "memory/d2-2.md"}; !reflect.DeepEqual(c.questions[0].evidence, want) {
		t.Fatalf("evidence %v, want %v", c.questions[0].evidence, want)
	}
	root := filepath.Join(dir, "vault")
	if err := WriteVault(root, c); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "memory", "d2-2.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "valid_at: 2023-06-03T09:05:10Z\nsession: locomo-7-s2\n") {
		t.Fatalf("memory file:\n%s", data)
	}
	p, err := NewPlain(c)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s, err := Measure(c, p.Search, false)
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 2 || s.Hit5 != 2 || s.Hit1 != 2 || s.MRR() != 1 || s.Unstable != 0 || len(s.latencies) != 2 {
		t.Fatalf("plain score %+v", s)
	}
	// Each answer is kept, for -misses, with the turns' text to print.
	if a := s.Answers[0]; len(s.Answers) != 2 || a.Question != "What colour is the boat?" || !a.Hit5() || c.Text(a.Hits[0]) != "Ana: The boat is blue." {
		t.Fatalf("answers %+v", s.Answers)
	}
	if miss := (Answer{Evidence: []string{"memory/d1-1.md"}, Hits: []string{"memory/d2-1.md"}}); miss.Hit5() {
		t.Fatal("a hit outside the evidence counted")
	}
	refuse := func(string, []string, int) ([]string, error) { return nil, &Refusal{"no"} }
	if s, err := Measure(c, refuse, true); err != nil || s.Refused != 2 || s.Hit10 != 0 {
		t.Fatalf("a refusal is a miss: %+v %v", s, err)
	}
}

func TestRewrites(t *testing.T) {
	t.Parallel()
	got := rewrites("What did Bo's cat do in 2022-2023?")
	want := []string{"Bo's cat 2022 2023", "What Bo's 2022 2023"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// A made-up chat in REALTALK's shape: a time per message, clean_text, and
// evidence written as real users' annotators wrote it.
const chat = `{
  "name": "x",
  "session_1": [
    {"clean_text": "I bake bread on Sundays", "speaker": "Emi", "date_time": "29.12.2023, 22:42:04", "dia_id": "D1:1"},
    {"clean_text": "Sourdough?", "speaker": "elise", "date_time": "30.12.2023, 00:32:20", "dia_id": "D1:2"},
    {"clean_text": "Yes, rye too", "speaker": "Emi", "date_time": "30.12.2023, 00:35:00", "dia_id": "D1:3"}
  ],
  "session_1_date_time": "29.12.2023",
  "qa": [
    {"question": "What does Emi bake?", "answer": "bread", "evidence": ["D1:1-D1:3."], "category": 1},
    {"question": "When?", "answer": "Sundays", "evidence": ["D1:1; D9:9"], "category": 2},
    {"question": "Gone?", "answer": "-", "evidence": ["D7:1"], "category": 3}
  ]
}`

func TestSetsAndRealtalk(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	for name, body := range map[string]string{"locomo/7.json": conversation, "realtalk/Chat_1_A_B.json": chat} {
		if err := os.MkdirAll(filepath.Join(data, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(data, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sets, err := LoadSets(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 2 || sets[0].Format.Name != "LoCoMo" || sets[1].Format.Name != "REALTALK" {
		t.Fatalf("sets %+v", sets)
	}
	c := sets[1].Conversations[0]
	if len(c.turns) != 3 || c.turns[1].body() != "elise: Sourdough?" || c.turns[1].At.Format(time.RFC3339) != "2023-12-30T00:32:20Z" {
		t.Fatalf("turns %+v", c.turns)
	}
	// The range is expanded, the id naming no turn dropped, and the
	// question left with no evidence skipped.
	want := []question{
		{"What does Emi bake?", []string{"memory/d1-1.md", "memory/d1-2.md", "memory/d1-3.md"}, 1},
		{"When?", []string{"memory/d1-1.md"}, 2},
	}
	if !reflect.DeepEqual(c.questions, want) {
		t.Fatalf("questions %+v, want %+v", c.questions, want)
	}
	root := filepath.Join(data, "vault")
	if err := WriteVault(root, c); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "memory", "d1-2.md"))
	if err != nil || !strings.Contains(string(got), "session: realtalk-Chat_1_A_B-s1\n") {
		t.Fatalf("memory file: %s %v", got, err)
	}
	// The limit-5 answer that is not the first five of the limit-10 one.
	unstable := func(_ string, _ []string, limit int) ([]string, error) {
		if limit == 5 {
			return []string{"memory/d1-1.md"}, nil
		}
		return []string{"memory/d1-3.md", "memory/d1-1.md"}, nil
	}
	s, err := Measure(c, unstable, false)
	if err != nil || s.Unstable != 2 || s.Hit1 != 2 || s.Hit10 != 2 || s.MRR() != 0.75 {
		t.Fatalf("score %+v %v", s, err)
	}
}

// testdata/beam holds a made-up chat in BEAM's layout (a folder per chat:
// chat.json in batches, probing_questions/probing_questions.json by kind),
// never BEAM's own text. The -data folder links to it, as a suite folder
// links to sets kept elsewhere.
func TestBEAM(t *testing.T) {
	t.Parallel()
	data, beam := beamData(t)
	sets, err := LoadSets(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 2 || sets[0].Name != "beam" || sets[0].Format.Name != "BEAM" || sets[1].Format.Name != "LoCoMo" {
		t.Fatalf("sets %+v", sets)
	}
	c := sets[0].Conversations[0]
	if c.Name != "7" || len(c.turns) != 6 {
		t.Fatalf("conversation %+v", c)
	}
	// The generator's "->-> 1,1" is cut; a message is its batch's anchor
	// plus 10 s per message before it.
	if got := c.turns[0].body(); got != "user: I'm Ana and I keep bees near Oslo" {
		t.Fatalf("first message %q", got)
	}
	if a, b := c.turns[3], c.turns[4]; a.DiaID != "D1:3" || a.At.Format(time.RFC3339) != "2024-03-15T00:00:30Z" ||
		b.DiaID != "D2:10" || b.At.Format(time.RFC3339) != "2024-04-02T00:00:00Z" || b.Session != 2 {
		t.Fatalf("turns %+v %+v", a, b)
	}
	// Evidence from a map of lists and from lists in a list; abstention and
	// a question citing no message are left out; kinds in the paper's order.
	want := []question{
		{"Have I sold any honey?", []string{"memory/d1-0.md", "memory/d2-10.md"}, 2},
		{"In what order did I talk about the bees, the hive and the market?", []string{"memory/d1-0.md", "memory/d1-2.md", "memory/d2-10.md"}, 3},
		{"What colour is the hive?", []string{"memory/d1-2.md"}, 4},
	}
	if !reflect.DeepEqual(c.questions, want) {
		t.Fatalf("questions %+v, want %+v", c.questions, want)
	}
	checkBEAMVault(t, c)
	// -data naming the set's own folder runs it alone, -conv picks by folder.
	if sets, err := LoadSets(beam, []string{"7"}); err != nil || len(sets) != 1 || sets[0].Name != "beam" || len(sets[0].Conversations) != 1 {
		t.Fatalf("the set alone: %+v %v", sets, err)
	}
}

// beamData is a -data folder holding a LoCoMo set and, linked, the BEAM
// set of testdata/beam, whose path it also returns.
func beamData(t *testing.T) (data, beam string) {
	t.Helper()
	data = t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "locomo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "locomo", "7.json"), []byte(conversation), 0o644); err != nil {
		t.Fatal(err)
	}
	beam, err := filepath.Abs(filepath.Join("testdata", "beam"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(beam, filepath.Join(data, "beam")); err != nil {
		t.Fatal(err)
	}
	return data, beam
}

// checkBEAMVault: the BEAM chat c written as a vault holds its messages
// with their sessions, and plain bleve finds every question's evidence.
func checkBEAMVault(t *testing.T, c Conversation) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "vault")
	if err := WriteVault(root, c); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "memory", "d2-10.md"))
	if err != nil || !strings.Contains(string(got), "session: beam-7-s2\n---\nuser: I sold the first honey at the market\n") {
		t.Fatalf("memory file: %s %v", got, err)
	}
	p, err := NewPlain(c)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if s, err := Measure(c, p.Search, false); err != nil || s.N != 3 || s.Hit5 != 3 || s.ByCategory[4].N != 1 {
		t.Fatalf("plain score %+v %v", s, err)
	}
}

func TestBEAMErrors(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ chat, want string }{
		"no anchor": {`[{"batch_number": 1, "turns": [[{"role": "user", "id": 0, "content": "hi"}]]}]`,
			"chat.json: batch 1: message 0 comes before any time_anchor"},
		"bad anchor": {`[{"batch_number": 1, "turns": [[{"role": "user", "id": 0, "time_anchor": "15.03.2024", "content": "hi"}]]}]`,
			"chat.json: message 0: time_anchor: "},
		"two ids": {`[{"batch_number": 1, "turns": [[{"role": "user", "id": 0, "time_anchor": "March-15-2024", "content": "hi"}, {"role": "assistant", "id": 0, "content": "hello"}]]}]`,
			"chat.json: two messages with id 0"},
	} {
		dir := filepath.Join(t.TempDir(), "beam", "1")
		if err := os.MkdirAll(filepath.Join(dir, "probing_questions"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "chat.json"), []byte(tc.chat), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadSets(filepath.Dir(dir), nil)
		if err == nil || !strings.Contains(err.Error(), filepath.Join("beam", "1")+": "+tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
}
