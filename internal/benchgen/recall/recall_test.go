package recall

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
	dir := t.TempDir()
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
	if s.N != 2 || s.Hit5 != 2 || s.Hit1 != 2 || len(s.latencies) != 2 {
		t.Fatalf("plain score %+v", s)
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
