package secrets

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

func TestZZProbe(t *testing.T) {
	f, err := os.Open(os.Getenv("VARIANTS"))
	if err != nil {
		t.Skip()
	}
	counts := map[string][2]int{}
	seen := map[string]bool{}
	var misses []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v struct{ Rule, Variant, Text, Secret string }
		json.Unmarshal(sc.Bytes(), &v)
		if seen[v.Text] {
			continue
		}
		seen[v.Text] = true
		c := counts[v.Variant]
		if len(Find(v.Text)) > 0 {
			c[0]++
		} else {
			c[1]++
			misses = append(misses, fmt.Sprintf("MISS %s %s: %q", v.Variant, v.Rule, v.Text))
		}
		counts[v.Variant] = c
	}
	sort.Strings(misses)
	fmt.Println(strings.Join(misses, "\n"))
	for k, c := range counts {
		fmt.Println(k, c)
	}
	fp := 0
	for _, l := range []string{"ar", "bn", "ca", "cs", "de", "es", "fa", "fr", "hi", "id", "it", "ja", "ko", "nl", "pl", "pt_BR", "ru", "tr", "uk", "zh"} {
		b, _ := os.ReadFile("/tmp/secbench/fp/" + l + ".txt")
		for _, s := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if len(Find(s)) > 0 {
				fp++
				fmt.Printf("FP %q\n", s)
			}
		}
	}
	fmt.Println("fp", fp)
}
