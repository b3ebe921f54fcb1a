// Package recall is the retrieval benchmark: the conversations of public
// sets (LoCoMo, REALTALK, BEAM; see Formats) read at run time from a
// directory the project never copies, every dialogue turn written as one
// memory file, every question asked of a searcher, hit@k counted against
// the question's evidence turns. Plain is the reference it is measured
// against: bleve used the plain way, one text field, the question as a
// match query.
package recall

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
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
	At      time.Time // LoCoMo, BEAM: the session's time plus 10 s per turn; REALTALK: the message's own
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
	Name      string // the file's name without .json, e.g. 26, or the folder's (BEAM)
	Set       string // the set it belongs to, which names its vault and sessions
	turns     []Turn
	questions []question
}

// Format is one benchmark's file format: how a conversation is recognised
// and read, and what its question categories mean. A conversation is
// either one file in LoCoMo's layout (session_N lists of turns and qa),
// told apart by the field only the format's turns have (turnKey, read turn
// by turn), or a folder holding the file chat (read by folder).
type Format struct {
	Name       string
	Categories map[int]string
	turnKey    string
	turn       func(raw map[string]json.RawMessage, session int, i int, t rawTurn) (Turn, error)
	chat       string
	folder     func(dir string) ([]Turn, []rawQuestion, error)
}

// rawQuestion is a question as a format gives it, its evidence as dia_ids.
type rawQuestion struct {
	text     string
	evidence []string
	category int
}

// rawTurn is a dialogue turn in LoCoMo's layout, as LoCoMo and REALTALK write it.
type rawTurn struct {
	Speaker   string `json:"speaker"`
	DiaID     string `json:"dia_id"`
	Text      string `json:"text"`
	CleanText string `json:"clean_text"`
	Caption   string `json:"blip_caption"`
	DateTime  string `json:"date_time"`
}

// Formats are the sets mem-bench recall reads: LoCoMo (snap-research/locomo,
// ACL 2024: synthetic dialogue between two agents over months), REALTALK
// (danny911kr/REALTALK, 2025: real messaging-app chats over 21 days, in
// LoCoMo's layout with a time per message) and BEAM (mohammadtavakoli78/BEAM,
// 2025: one user's chats with an assistant about a project over months, a
// folder per chat as the repository's chats/100K holds them).
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
	{Name: "BEAM", chat: "chat.json", folder: readBEAM,
		// Abstention (its answer is in no message) is left out, as LoCoMo's 5.
		Categories: map[int]string{2: "contradiction", 3: "event ordering", 4: "information extraction",
			5: "instruction following", 6: "knowledge update", 7: "multi-session", 8: "preference following",
			9: "summarization", 10: "temporal"}},
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
// (*.json, or folders holding a chat file), else each folder of it that
// does, in name order. names, when given, picks conversations by name
// (the file's without .json, or the folder's) in every set.
func LoadSets(dir string, names []string) ([]Set, error) {
	convs, err := conversations(dir)
	if err != nil {
		return nil, err
	}
	if len(convs) > 0 {
		s, err := loadSet(dir, convs, names)
		return []Set{s}, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Set
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		// Stat, not e.IsDir: a -data folder may link to sets kept elsewhere.
		if fi, err := os.Stat(sub); err != nil {
			return nil, err
		} else if !fi.IsDir() {
			continue
		}
		convs, err := conversations(sub)
		if err != nil {
			return nil, err
		}
		if len(convs) == 0 {
			continue
		}
		s, err := loadSet(sub, convs, names)
		if err != nil {
			return nil, err
		}
		if len(s.Conversations) > 0 {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no set here (a folder of conversations: *.json, or folders holding chat.json)", dir)
	}
	return out, nil
}

// Load reads the conversations of one set's folder, in name order; names,
// when given, picks some of them.
func Load(dir string, names []string) ([]Conversation, error) {
	convs, err := conversations(dir)
	if err != nil {
		return nil, err
	}
	s, err := loadSet(dir, convs, names)
	if err == nil && len(s.Conversations) == 0 {
		err = fmt.Errorf("%s: none of the conversations %s", dir, strings.Join(names, ", "))
	}
	return s.Conversations, err
}

// entry is one conversation of a set's folder: a file, whose format its
// turns tell, or a folder holding the chat file of format.
type entry struct {
	name, path string
	format     *Format
}

// conversations lists the conversations in dir, in name order.
func conversations(dir string) ([]entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []entry
	for _, e := range des {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			if name, ok := strings.CutSuffix(e.Name(), ".json"); ok {
				out = append(out, entry{name: name, path: p})
			}
			continue
		}
		for _, f := range Formats {
			if f.chat == "" {
				continue
			}
			if _, err := os.Stat(filepath.Join(p, f.chat)); err == nil {
				out = append(out, entry{name: e.Name(), path: p, format: f})
				break
			}
		}
	}
	return out, nil
}

func loadSet(dir string, convs []entry, names []string) (Set, error) {
	set := Set{Name: filepath.Base(dir)}
	if len(convs) == 0 {
		return set, fmt.Errorf("%s: no conversations (*.json, or folders holding chat.json) here", dir)
	}
	for _, e := range convs {
		if len(names) > 0 && !slices.Contains(names, e.name) {
			continue
		}
		c, format, err := load(e, set.Name)
		if err != nil {
			return set, fmt.Errorf("%s: %w", e.path, err)
		}
		if set.Format != nil && format != set.Format {
			return set, fmt.Errorf("%s: a %s conversation among %s ones: give each format its own folder", e.path, format.Name, set.Format.Name)
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

// load reads one conversation and keeps the questions a retrieval figure
// can count.
func load(e entry, set string) (Conversation, *Format, error) {
	c := Conversation{Name: e.name, Set: set}
	var qs []rawQuestion
	format := e.format
	var err error
	if format != nil {
		c.turns, qs, err = format.folder(e.path)
	} else {
		c.turns, qs, format, err = readSessions(e.path)
	}
	if err != nil {
		return c, nil, err
	}
	sort.SliceStable(c.turns, func(i, j int) bool { return c.turns[i].At.Before(c.turns[j].At) })
	has := make(map[string]bool, len(c.turns))
	for _, t := range c.turns {
		has[t.DiaID] = true
	}
	for _, q := range qs {
		if format.Categories[q.category] == "" {
			continue // LoCoMo's 5, BEAM's abstention
		}
		var ev []string
		for _, e := range q.evidence {
			for _, id := range evidence(e) {
				if has[id] {
					ev = append(ev, rel(id))
				}
			}
		}
		if len(ev) == 0 {
			continue // nothing to find: no retrieval figure can count it
		}
		c.questions = append(c.questions, question{text: q.text, evidence: ev, category: q.category})
	}
	return c, format, nil
}

// readSessions reads a conversation file in LoCoMo's layout: session_N
// lists of turns, whose fields tell the format, and qa.
func readSessions(file string) ([]Turn, []rawQuestion, *Format, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, nil, nil, err
	}
	var format *Format
	var out []Turn
	for key, val := range raw {
		m := sessionKey.FindStringSubmatch(key)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		var fields []map[string]json.RawMessage
		if err := json.Unmarshal(val, &fields); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", key, err)
		}
		var turns []rawTurn
		if err := json.Unmarshal(val, &turns); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", key, err)
		}
		for i, t := range turns {
			if format == nil {
				for _, f := range Formats {
					if _, ok := fields[i][f.turnKey]; ok && f.turnKey != "" {
						format = f
					}
				}
				if format == nil {
					return nil, nil, nil, fmt.Errorf("%s: a turn with neither text (LoCoMo) nor clean_text (REALTALK)", key)
				}
			}
			turn, err := format.turn(raw, n, i, t)
			if err != nil {
				return nil, nil, nil, err
			}
			out = append(out, turn)
		}
	}
	if format == nil {
		return nil, nil, nil, errors.New("no session_N of turns")
	}
	var qa []struct {
		Question string `json:"question"`
		Evidence []string
		Category int `json:"category"`
	}
	if err := json.Unmarshal(raw["qa"], &qa); err != nil {
		return nil, nil, nil, fmt.Errorf("qa: %w", err)
	}
	qs := make([]rawQuestion, len(qa))
	for i, q := range qa {
		qs[i] = rawQuestion{text: q.Question, evidence: q.Evidence, category: q.Category}
	}
	return out, qs, format, nil
}

const beamTime = "January-02-2006" // a batch's time_anchor, "March-15-2024"

// beamKinds are BEAM's question kinds in the paper's order; a kind's
// category is its place, from 1.
var beamKinds = []string{"abstention", "contradiction_resolution", "event_ordering", "information_extraction",
	"instruction_following", "knowledge_update", "multi_session_reasoning", "preference_following",
	"summarization", "temporal_reasoning"}

// beamIndex is the generator's mark that ends many user messages
// ("... by then? ->-> 1,1"): the plan's bullet, no words of the user's.
var beamIndex = regexp.MustCompile(`\s*->->\s*\d+\s*,\s*\d+\s*$`)

// readBEAM reads one BEAM chat, a folder as mohammadtavakoli78/BEAM's
// chats/100K/N holds it. chat.json is a list of batches (the sessions),
// each a list of turns of messages (role, id, content, and on a batch's
// first message its time_anchor); a message is dated by its batch's anchor
// plus 10 s for each message before it in the batch, as LoCoMo's turns are,
// and is dia_id D<batch>:<id>. probing_questions/probing_questions.json holds
// the questions by kind, each citing messages by id in source_chat_ids: a
// list, lists in a list, or a map of lists (first and second statement,
// original and updated information).
func readBEAM(dir string) ([]Turn, []rawQuestion, error) {
	data, err := os.ReadFile(filepath.Join(dir, "chat.json"))
	if err != nil {
		return nil, nil, err
	}
	var batches []struct {
		Batch int `json:"batch_number"`
		Turns [][]struct {
			Role       string `json:"role"`
			ID         int    `json:"id"`
			Content    string `json:"content"`
			TimeAnchor string `json:"time_anchor"`
		} `json:"turns"`
	}
	if err := json.Unmarshal(data, &batches); err != nil {
		return nil, nil, fmt.Errorf("chat.json: %w", err)
	}
	var turns []Turn
	dia := map[int]string{}
	for _, b := range batches {
		var at time.Time
		i := 0
		for _, turn := range b.Turns {
			for _, m := range turn {
				if m.TimeAnchor != "" {
					if at, err = time.Parse(beamTime, m.TimeAnchor); err != nil {
						return nil, nil, fmt.Errorf("chat.json: message %d: time_anchor: %w", m.ID, err)
					}
					i = 0
				}
				if at.IsZero() {
					return nil, nil, fmt.Errorf("chat.json: batch %d: message %d comes before any time_anchor", b.Batch, m.ID)
				}
				if _, dup := dia[m.ID]; dup {
					return nil, nil, fmt.Errorf("chat.json: two messages with id %d", m.ID)
				}
				dia[m.ID] = fmt.Sprintf("D%d:%d", b.Batch, m.ID)
				turns = append(turns, Turn{DiaID: dia[m.ID], Speaker: m.Role, Text: beamIndex.ReplaceAllString(m.Content, ""),
					Session: b.Batch, At: at.Add(time.Duration(i) * 10 * time.Second)})
				i++
			}
		}
	}
	file := filepath.Join("probing_questions", "probing_questions.json")
	data, err = os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, nil, err
	}
	var kinds map[string][]struct {
		Question string `json:"question"`
		Sources  any    `json:"source_chat_ids"`
	}
	if err := json.Unmarshal(data, &kinds); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	var qs []rawQuestion
	for k, kind := range beamKinds {
		for _, q := range kinds[kind] {
			var ev []string
			for _, id := range numbers(q.Sources) {
				if d, ok := dia[id]; ok {
					ev = append(ev, d)
				}
			}
			qs = append(qs, rawQuestion{text: q.Question, evidence: ev, category: k + 1})
		}
	}
	return turns, qs, nil
}

// numbers are the whole numbers anywhere in a decoded JSON value.
func numbers(v any) []int {
	switch v := v.(type) {
	case float64:
		if v == float64(int(v)) {
			return []int{int(v)}
		}
	case []any:
		var out []int
		for _, x := range v {
			out = append(out, numbers(x)...)
		}
		return out
	case map[string]any:
		var out []int
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, numbers(v[k])...)
		}
		return out
	}
	return nil
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
