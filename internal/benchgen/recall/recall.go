// Package recall is the retrieval benchmark: the LoCoMo conversations
// (snap-research/locomo, ACL 2024) read at run time from a directory the
// project never copies, every dialogue turn written as one memory file,
// every question asked of a searcher, hit@k counted against the question's
// evidence turns. Plain is the reference it is measured against: bleve used
// the plain way, one text field, the question as a match query.
package recall

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// Turn is one dialogue turn, which the benchmark writes as one memory.
type Turn struct {
	DiaID   string // D3:12: session 3, turn 12
	Speaker string
	Text    string
	Caption string // the shared image's caption, if any
	Session int
	At      time.Time // the session's time plus 10 s per turn
}

// body is the turn as its memory file holds it.
func (t Turn) body() string {
	s := t.Speaker + ": " + t.Text
	if t.Caption != "" {
		s += " [shares " + t.Caption + "]"
	}
	return s
}

// rel is the turn's file, relative to its vault: D3:12 is memory/d3-12.md.
func (t Turn) rel() string { return rel(t.DiaID) }

func rel(dia string) string {
	return "memory/" + strings.ToLower(strings.ReplaceAll(dia, ":", "-")) + ".md"
}

// question is one question with the turns that answer it.
type question struct {
	text     string
	evidence []string // the evidence turns' files (rel)
	category int
}

// Conversation is one LoCoMo conversation: its turns and its questions
// with evidence, category 5 (adversarial: the answer is not in the
// conversation) left out as the paper leaves it out of retrieval.
type Conversation struct {
	Name      string // the file's name without .json, e.g. 26
	turns     []Turn
	questions []question
}

// sessionTime is LoCoMo's session date, e.g. "1:56 pm on 8 May, 2023".
const sessionTime = "3:04 pm on 2 January, 2006"

// Load reads the conversations of dir (N.json each), in name order; names,
// when given, picks some of them.
func Load(dir string, names []string) ([]Conversation, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no conversations (N.json) here", dir)
	}
	sort.Strings(files)
	var out []Conversation
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if len(names) > 0 && !slices.Contains(names, name) {
			continue
		}
		c, err := load(f, name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: none of the conversations %s", dir, strings.Join(names, ", "))
	}
	return out, nil
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// evidenceID is one dia_id inside an evidence entry, which some entries
// write several to a string ("D8:6; D9:17").
var evidenceID = regexp.MustCompile(`D\d+:\d+`)

func load(file, name string) (Conversation, error) {
	c := Conversation{Name: name}
	data, err := os.ReadFile(file)
	if err != nil {
		return c, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return c, err
	}
	for key, val := range raw {
		m := sessionKey.FindStringSubmatch(key)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		var when string
		if err := json.Unmarshal(raw[key+"_date_time"], &when); err != nil {
			return c, fmt.Errorf("%s_date_time: %w", key, err)
		}
		at, err := time.Parse(sessionTime, strings.TrimSpace(when))
		if err != nil {
			return c, fmt.Errorf("%s_date_time: %w", key, err)
		}
		var turns []struct {
			Speaker string `json:"speaker"`
			DiaID   string `json:"dia_id"`
			Text    string `json:"text"`
			Caption string `json:"blip_caption"`
		}
		if err := json.Unmarshal(val, &turns); err != nil {
			return c, fmt.Errorf("%s: %w", key, err)
		}
		for i, t := range turns {
			c.turns = append(c.turns, Turn{DiaID: t.DiaID, Speaker: t.Speaker, Text: t.Text, Caption: t.Caption,
				Session: n, At: at.Add(time.Duration(i) * 10 * time.Second)})
		}
	}
	sort.Slice(c.turns, func(i, j int) bool { return c.turns[i].At.Before(c.turns[j].At) })
	var qa []struct {
		Question string `json:"question"`
		Evidence []string
		Category int `json:"category"`
	}
	if err := json.Unmarshal(raw["qa"], &qa); err != nil {
		return c, fmt.Errorf("qa: %w", err)
	}
	for _, q := range qa {
		if q.Category == 5 {
			continue
		}
		var ev []string
		for _, e := range q.Evidence {
			for _, id := range evidenceID.FindAllString(e, -1) {
				ev = append(ev, rel(id))
			}
		}
		if len(ev) == 0 {
			continue // nothing to find: no retrieval figure can count it
		}
		c.questions = append(c.questions, question{text: q.Question, evidence: ev, category: q.Category})
	}
	return c, nil
}

// WriteVault writes c as a vault at dir: a mem.yaml and one memory file per
// turn, a stated fact valid at the turn's time in the session
// locomo-NAME-sK.
func WriteVault(dir string, c Conversation) error {
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "mem.yaml"), nil, 0o644); err != nil {
		return err
	}
	for _, t := range c.turns {
		f := fmt.Sprintf("---\ntype: fact\nprovenance: stated\nvalid_at: %s\nsession: locomo-%s-s%d\n---\n%s\n",
			t.At.UTC().Format(time.RFC3339), c.Name, t.Session, t.body())
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(t.rel())), []byte(f), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Searcher answers one question (and, for the queries variant, its other
// phrasings) with the files of its hits, best first. A *Refusal is the
// searcher turning the question down, which counts as a miss; any other
// error stops the benchmark.
type Searcher func(query string, also []string, limit int) ([]string, error)

// Refusal is a question the searcher answered with an error of its own.
type Refusal struct{ Msg string }

func (r *Refusal) Error() string { return r.Msg }

// Plain is the reference: one in-memory bleve index of c's turns, one text
// field with the en analyzer, the question as a match query. Close it when
// done.
type Plain struct{ idx bleve.Index }

// NewPlain indexes c's turns.
func NewPlain(c Conversation) (*Plain, error) {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt("text", text)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	idx, err := bleve.NewMemOnly(m)
	if err != nil {
		return nil, err
	}
	b := idx.NewBatch()
	for _, t := range c.turns {
		if err := b.Index(t.rel(), map[string]any{"text": t.body()}); err != nil {
			idx.Close()
			return nil, err
		}
	}
	if err := idx.Batch(b); err != nil {
		idx.Close()
		return nil, err
	}
	return &Plain{idx}, nil
}

// Search is the plain program's answer to one question (it ignores also).
func (p *Plain) Search(query string, _ []string, limit int) ([]string, error) {
	q := bleve.NewMatchQuery(query)
	q.SetField("text")
	res, err := p.idx.Search(bleve.NewSearchRequestOptions(q, limit, 0, false))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = h.ID
	}
	return out, nil
}

// Close releases the index.
func (p *Plain) Close() error { return p.idx.Close() }

var stopWords = func() analysis.TokenMap {
	m := analysis.NewTokenMap()
	if err := m.LoadBytes(en.EnglishStopWords); err != nil {
		panic(err) // bleve's own list
	}
	return m
}()

var word = regexp.MustCompile(`[\p{L}\p{N}']+`)

// rewrites are the queries variant's two mechanical rephrasings of a
// question: its words without the English stop words, and only its words
// of four letters or more.
func rewrites(q string) []string {
	var noStop, long []string
	for _, w := range word.FindAllString(q, -1) {
		if !stopWords[strings.ToLower(w)] {
			noStop = append(noStop, w)
		}
		if len([]rune(w)) >= 4 {
			long = append(long, w)
		}
	}
	return []string{strings.Join(noStop, " "), strings.Join(long, " ")}
}

// Score is one searcher's figures over a set of questions.
type Score struct {
	N                 int
	Hit1, Hit5, Hit10 int
	latencies         []time.Duration // of the limit-5 asks
	ByCategory        map[int][2]int  // category: hits@5, questions
	// Refused counts the questions the searcher refused (a query it could
	// not parse): each is a miss, as it is for an agent that asked it.
	Refused int
}

// Rate is hits over questions.
func (s Score) Rate(hits int) float64 {
	if s.N == 0 {
		return 0
	}
	return float64(hits) / float64(s.N)
}

// Mean is the latencies' mean.
func (s Score) Mean() time.Duration {
	if len(s.latencies) == 0 {
		return 0
	}
	var sum time.Duration
	for _, l := range s.latencies {
		sum += l
	}
	return sum / time.Duration(len(s.latencies))
}

// Median is the median latency.
func (s Score) Median() time.Duration { return s.quantile(50) }

// P95 is the 95th percentile latency.
func (s Score) P95() time.Duration { return s.quantile(95) }

func (s Score) quantile(pct int) time.Duration {
	if len(s.latencies) == 0 {
		return 0
	}
	l := slices.Clone(s.latencies)
	slices.Sort(l)
	return l[min(len(l)-1, len(l)*pct/100)]
}

// Add counts another score in.
func (s *Score) Add(o Score) {
	s.N += o.N
	s.Hit1 += o.Hit1
	s.Hit5 += o.Hit5
	s.Hit10 += o.Hit10
	s.Refused += o.Refused
	s.latencies = append(s.latencies, o.latencies...)
	if s.ByCategory == nil {
		s.ByCategory = map[int][2]int{}
	}
	for k, v := range o.ByCategory {
		c := s.ByCategory[k]
		s.ByCategory[k] = [2]int{c[0] + v[0], c[1] + v[1]}
	}
}

// Measure asks every question of c: with limit 5 (timed; hit@1 and hit@5)
// and with limit 10 (hit@10). With variant, each question is asked with its
// rewrites besides.
func Measure(c Conversation, search Searcher, variant bool) (Score, error) {
	s := Score{ByCategory: map[int][2]int{}}
	for _, q := range c.questions {
		var also []string
		if variant {
			also = rewrites(q.text)
		}
		start := time.Now()
		top5, err := search(q.text, also, 5)
		s.latencies = append(s.latencies, time.Since(start))
		var top10 []string
		if err == nil {
			top10, err = search(q.text, also, 10)
		}
		var refused *Refusal
		if errors.As(err, &refused) {
			s.Refused++
		} else if err != nil {
			return s, fmt.Errorf("conversation %s, %q: %w", c.Name, q.text, err)
		}
		hit := func(hits []string, k int) int {
			for _, h := range hits[:min(k, len(hits))] {
				if slices.Contains(q.evidence, h) {
					return 1
				}
			}
			return 0
		}
		s.N++
		s.Hit1 += hit(top5, 1)
		s.Hit5 += hit(top5, 5)
		s.Hit10 += hit(top10, 10)
		cat := s.ByCategory[q.category]
		s.ByCategory[q.category] = [2]int{cat[0] + hit(top5, 5), cat[1] + 1}
	}
	return s, nil
}
