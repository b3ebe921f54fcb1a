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
	At      time.Time // LoCoMo: the session's time plus 10 s per turn; REALTALK: the message's own
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

// Conversation is one conversation of a set: its turns and its questions
// with evidence. A question whose evidence names no turn of it is left out
// (nothing could find it), as is LoCoMo's category 5 (adversarial: the
// answer is not in the conversation), which the paper leaves out of
// retrieval.
type Conversation struct {
	Name      string // the file's name without .json, e.g. 26
	Set       string // the set it belongs to, which names its vault and sessions
	turns     []Turn
	questions []question
}

// Format is one benchmark's file format: how a file is recognised and
// read, and what its question categories mean.
type Format struct {
	Name       string
	Categories map[int]string
	// turnKey is the field only this format's turns have.
	turnKey string
	turn    func(raw map[string]json.RawMessage, session int, i int, t rawTurn) (Turn, error)
}

// rawTurn is a dialogue turn as both formats write it.
type rawTurn struct {
	Speaker   string `json:"speaker"`
	DiaID     string `json:"dia_id"`
	Text      string `json:"text"`
	CleanText string `json:"clean_text"`
	Caption   string `json:"blip_caption"`
	DateTime  string `json:"date_time"`
}

// Formats are the sets mem-bench recall reads: LoCoMo (snap-research/locomo,
// ACL 2024: synthetic dialogue between two agents over months) and REALTALK
// (danny911kr/REALTALK, 2025: real messaging-app chats over 21 days, in
// LoCoMo's layout with a time per message).
var Formats = []*Format{
	{Name: "LoCoMo", turnKey: "text",
		Categories: map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"},
		turn: func(raw map[string]json.RawMessage, n, i int, t rawTurn) (Turn, error) {
			key := fmt.Sprintf("session_%d_date_time", n)
			var when string
			if err := json.Unmarshal(raw[key], &when); err != nil {
				return Turn{}, fmt.Errorf("%s: %w", key, err)
			}
			at, err := time.Parse(locomoTime, strings.TrimSpace(when))
			if err != nil {
				return Turn{}, fmt.Errorf("%s: %w", key, err)
			}
			return Turn{DiaID: t.DiaID, Speaker: t.Speaker, Text: t.Text, Caption: t.Caption,
				Session: n, At: at.Add(time.Duration(i) * 10 * time.Second)}, nil
		}},
	{Name: "REALTALK", turnKey: "clean_text",
		Categories: map[int]string{1: "multi-hop", 2: "temporal", 3: "commonsense"},
		turn: func(_ map[string]json.RawMessage, n, _ int, t rawTurn) (Turn, error) {
			at, err := time.Parse(realtalkTime, strings.TrimSpace(t.DateTime))
			if err != nil {
				return Turn{}, fmt.Errorf("%s: date_time: %w", t.DiaID, err)
			}
			return Turn{DiaID: t.DiaID, Speaker: t.Speaker, Text: t.CleanText, Session: n, At: at}, nil
		}},
}

const (
	locomoTime   = "3:04 pm on 2 January, 2006" // a session's, "1:56 pm on 8 May, 2023"
	realtalkTime = "02.01.2006, 15:04:05"       // a message's, "29.12.2023, 22:42:04"
)

// Set is one benchmark: the conversations of one folder, in one format.
type Set struct {
	Name          string // the folder's name
	Format        *Format
	Conversations []Conversation
}

// LoadSets reads the sets under dir: dir itself when it holds conversations
// (*.json), else each folder of it that does, in name order. names, when
// given, picks conversations by file name (without .json) in every set.
func LoadSets(dir string, names []string) ([]Set, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) > 0 {
		s, err := loadSet(dir, names)
		return []Set{s}, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Set
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if fs, _ := filepath.Glob(filepath.Join(sub, "*.json")); len(fs) == 0 {
			continue
		}
		s, err := loadSet(sub, names)
		if err != nil {
			return nil, err
		}
		if len(s.Conversations) > 0 {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no set here (a folder of conversations, *.json)", dir)
	}
	return out, nil
}

// Load reads the conversations of one set's folder (dir/*.json), in name
// order; names, when given, picks some of them.
func Load(dir string, names []string) ([]Conversation, error) {
	s, err := loadSet(dir, names)
	if err == nil && len(s.Conversations) == 0 {
		err = fmt.Errorf("%s: none of the conversations %s", dir, strings.Join(names, ", "))
	}
	return s.Conversations, err
}

func loadSet(dir string, names []string) (Set, error) {
	set := Set{Name: filepath.Base(dir)}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return set, err
	}
	if len(files) == 0 {
		return set, fmt.Errorf("%s: no conversations (*.json) here", dir)
	}
	sort.Strings(files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if len(names) > 0 && !slices.Contains(names, name) {
			continue
		}
		c, format, err := load(f, name, set.Name)
		if err != nil {
			return set, fmt.Errorf("%s: %w", f, err)
		}
		if set.Format != nil && format != set.Format {
			return set, fmt.Errorf("%s: a %s conversation among %s ones: give each format its own folder", f, format.Name, set.Format.Name)
		}
		set.Format = format
		set.Conversations = append(set.Conversations, c)
	}
	return set, nil
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// evidenceRef is one dia_id in an evidence entry, or a range of them in
// one session (REALTALK's "D12:3-D12:5"); some entries hold several
// ("D8:6; D9:17") or end in a dot.
var evidenceRef = regexp.MustCompile(`D(\d+):(\d+)(?:\s*-\s*(?:D(\d+):)?(\d+))?`)

// evidence is the dia_ids an entry names, ranges expanded.
func evidence(entry string) []string {
	var out []string
	for _, m := range evidenceRef.FindAllStringSubmatch(entry, -1) {
		from, _ := strconv.Atoi(m[2])
		to := from
		if m[4] != "" && (m[3] == "" || m[3] == m[1]) {
			to, _ = strconv.Atoi(m[4])
		}
		for k := from; k <= max(from, to) && k < from+100; k++ {
			out = append(out, fmt.Sprintf("D%s:%d", m[1], k))
		}
	}
	return out
}

func load(file, name, set string) (Conversation, *Format, error) {
	c := Conversation{Name: name, Set: set}
	data, err := os.ReadFile(file)
	if err != nil {
		return c, nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return c, nil, err
	}
	var format *Format
	for key, val := range raw {
		m := sessionKey.FindStringSubmatch(key)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		var fields []map[string]json.RawMessage
		if err := json.Unmarshal(val, &fields); err != nil {
			return c, nil, fmt.Errorf("%s: %w", key, err)
		}
		var turns []rawTurn
		if err := json.Unmarshal(val, &turns); err != nil {
			return c, nil, fmt.Errorf("%s: %w", key, err)
		}
		for i, t := range turns {
			if format == nil {
				for _, f := range Formats {
					if _, ok := fields[i][f.turnKey]; ok {
						format = f
					}
				}
				if format == nil {
					return c, nil, fmt.Errorf("%s: a turn with neither text (LoCoMo) nor clean_text (REALTALK)", key)
				}
			}
			turn, err := format.turn(raw, n, i, t)
			if err != nil {
				return c, nil, err
			}
			c.turns = append(c.turns, turn)
		}
	}
	if format == nil {
		return c, nil, errors.New("no session_N of turns")
	}
	sort.SliceStable(c.turns, func(i, j int) bool { return c.turns[i].At.Before(c.turns[j].At) })
	has := make(map[string]bool, len(c.turns))
	for _, t := range c.turns {
		has[t.DiaID] = true
	}
	var qa []struct {
		Question string `json:"question"`
		Evidence []string
		Category int `json:"category"`
	}
	if err := json.Unmarshal(raw["qa"], &qa); err != nil {
		return c, nil, fmt.Errorf("qa: %w", err)
	}
	for _, q := range qa {
		if format.Categories[q.Category] == "" {
			continue // LoCoMo's 5, adversarial
		}
		var ev []string
		for _, e := range q.Evidence {
			for _, id := range evidence(e) {
				if has[id] {
					ev = append(ev, rel(id))
				}
			}
		}
		if len(ev) == 0 {
			continue // nothing to find: no retrieval figure can count it
		}
		c.questions = append(c.questions, question{text: q.Question, evidence: ev, category: q.Category})
	}
	return c, format, nil
}

// WriteVault writes c as a vault at dir: a mem.yaml and one memory file per
// turn, a stated fact valid at the turn's time in the session SET-NAME-sK.
func WriteVault(dir string, c Conversation) error {
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "mem.yaml"), nil, 0o644); err != nil {
		return err
	}
	for _, t := range c.turns {
		f := fmt.Sprintf("---\ntype: fact\nprovenance: stated\nvalid_at: %s\nsession: %s-%s-s%d\n---\n%s\n",
			t.At.UTC().Format(time.RFC3339), strings.ToLower(c.Set), c.Name, t.Session, t.body())
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

// Counts are hit@k and reciprocal ranks over some questions.
type Counts struct {
	N                 int
	Hit1, Hit5, Hit10 int
	RR                float64 // the sum of 1/rank of the first evidence turn in the top 10
}

// Rate is hits over questions.
func (c Counts) Rate(hits int) float64 {
	if c.N == 0 {
		return 0
	}
	return float64(hits) / float64(c.N)
}

// MRR is the mean reciprocal rank (a question with no evidence turn in
// the top 10 counts 0).
func (c Counts) MRR() float64 {
	if c.N == 0 {
		return 0
	}
	return c.RR / float64(c.N)
}

func (c *Counts) add(o Counts) {
	c.N += o.N
	c.Hit1 += o.Hit1
	c.Hit5 += o.Hit5
	c.Hit10 += o.Hit10
	c.RR += o.RR
}

// Score is one searcher's figures over a set of questions.
type Score struct {
	Counts
	latencies  []time.Duration // of the limit-5 asks
	ByCategory map[int]Counts
	// Refused counts the questions the searcher refused (a query it could
	// not parse): each is a miss, as it is for an agent that asked it.
	Refused int
	// Unstable counts the questions whose first five hits with limit 10
	// differ from the answer with limit 5: a search's first k hits must
	// not depend on how many were asked for.
	Unstable int
	// UnstableExample is the first such question, to look into.
	UnstableExample string
	// Answers are the questions asked and the first ten hits of each, in
	// order, to print a set's misses side by side (mem-bench recall -misses).
	Answers []Answer
}

// Answer is one question and a searcher's first ten hits for it.
type Answer struct {
	Question string
	Category int
	Evidence []string // the evidence turns' files
	Hits     []string
}

// Hit5 says whether an evidence turn is among the first five hits.
func (a Answer) Hit5() bool {
	return slices.ContainsFunc(a.Hits[:min(5, len(a.Hits))], func(h string) bool { return slices.Contains(a.Evidence, h) })
}

// Text is the body of the turn whose file is rel, as its memory holds it.
func (c Conversation) Text(rel string) string {
	for _, t := range c.turns {
		if t.rel() == rel {
			return t.body()
		}
	}
	return ""
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
	s.Counts.add(o.Counts)
	s.Refused += o.Refused
	s.Unstable += o.Unstable
	if s.UnstableExample == "" {
		s.UnstableExample = o.UnstableExample
	}
	s.latencies = append(s.latencies, o.latencies...)
	s.Answers = append(s.Answers, o.Answers...)
	if s.ByCategory == nil {
		s.ByCategory = map[int]Counts{}
	}
	for k, v := range o.ByCategory {
		c := s.ByCategory[k]
		c.add(v)
		s.ByCategory[k] = c
	}
}

// Measure asks every question of c: with limit 5 (timed; hit@1 and hit@5)
// and with limit 10 (hit@10 and the reciprocal rank), and checks that the
// first five of the second are the first. With variant, each question is
// asked with its rewrites besides.
func Measure(c Conversation, search Searcher, variant bool) (Score, error) {
	s := Score{ByCategory: map[int]Counts{}}
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
		if !slices.Equal(top5, top10[:min(5, len(top10))]) {
			s.Unstable++
			if s.UnstableExample == "" {
				s.UnstableExample = c.Name + ": " + q.text
			}
		}
		hit := func(hits []string, k int) int {
			for _, h := range hits[:min(k, len(hits))] {
				if slices.Contains(q.evidence, h) {
					return 1
				}
			}
			return 0
		}
		one := Counts{N: 1, Hit1: hit(top5, 1), Hit5: hit(top5, 5), Hit10: hit(top10, 10)}
		for i, h := range top10 {
			if slices.Contains(q.evidence, h) {
				one.RR = 1 / float64(i+1)
				break
			}
		}
		s.Counts.add(one)
		s.Answers = append(s.Answers, Answer{Question: q.text, Category: q.category, Evidence: q.evidence, Hits: top10})
		cat := s.ByCategory[q.category]
		cat.add(one)
		s.ByCategory[q.category] = cat
	}
	return s, nil
}
