package importer

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// gptConv is one conversation whose user says text.
func gptConv(id, text string) string {
	return `{"id":"` + id + `","title":"t ` + id + `","create_time":1700000000,"mapping":{"u":{"message":{"author":{"role":"user"},"content":{"parts":["` + text + `"]}}}}}`
}

// paddedExport is two conversations with pad between them (where) or
// inside the first one's mapping.
func paddedExport(pad, where string) []byte {
	if where == "inside" {
		c := gptConv("c1", "one")
		return []byte("[" + c[:len(c)-1] + "," + pad + `"x":1},` + gptConv("c2", "two") + "]")
	}
	return []byte("[" + gptConv("c1", "one") + "," + pad + gptConv("c2", "two") + "]")
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Whitespace between tokens costs no memory: json.Decoder kept every blank
// between two values buffered, and the line counter an offset per newline,
// so 64 MB of newlines took 3.4 GB and tens of seconds.
func TestChatGPTWhitespaceBounded(t *testing.T) {
	const padSize = 4 << 20
	for _, where := range []string{"between", "inside"} {
		for name, unit := range map[string]string{"spaces": " ", "newlines": "\n", "mixed": " \t\r\n"} {
			data := paddedExport(strings.Repeat(unit, padSize/len(unit)), where)
			var items []item
			var err error
			alloc := allocated(func() { items, err = parseChatGPT(bytes.NewReader(data), "conversations.json", env{}) })
			if err != nil || len(items) != 2 {
				t.Fatalf("%s %s: %d items, %v", name, where, len(items), err)
			}
			if alloc > 1<<20 {
				t.Errorf("%s %s: %d MiB allocated for %d MiB of whitespace; want it independent of the whitespace", name, where, alloc>>20, padSize>>20)
			}
		}
	}
	// Errors still name the line: conversation 2 starts on line 4.
	data := []byte("[\n" + gptConv("c1", "one") + ",\n\n" + `{"title": }` + "\n]")
	if _, err := parseChatGPT(bytes.NewReader(data), "conversations.json", env{}); err == nil || !strings.HasPrefix(err.Error(), "conversations.json:4: conversation 2: ") {
		t.Errorf("error %v, want it to name conversations.json:4, conversation 2", err)
	}
	data = []byte("[" + gptConv("c1", "one") + "\n\n" + gptConv("c2", "two") + "]")
	if _, err := parseChatGPT(bytes.NewReader(data), "conversations.json", env{}); err == nil || !strings.HasPrefix(err.Error(), "conversations.json:3: found '{' after conversation 1, want , or ]") {
		t.Errorf("error %v, want the missing comma on line 3", err)
	}
	// Whitespace between two tokens still separates them: `1 2` is not 12.
	data = []byte(`[{"create_time": 1 2}]`)
	if _, err := parseChatGPT(bytes.NewReader(data), "conversations.json", env{}); err == nil {
		t.Error(`{"create_time": 1 2} parsed`)
	}
}

// A conversation over maxConversation is skipped with a warning naming its
// line and size; the others import.
func TestChatGPTConversationCap(t *testing.T) {
	const convCap = 4 << 10
	data := []byte("[" + gptConv("c1", "one") + ",\n" + gptConv("c2", strings.Repeat("x", 256*convCap)) + ",\n" + gptConv("c3", "three") + "]")
	var warns []string
	var items []item
	var err error
	alloc := allocated(func() {
		items, err = parseChatGPT(bytes.NewReader(data), "conversations.json", env{warn: func(s string) { warns = append(warns, s) }, limits: limits{conversation: convCap}})
	})
	if err != nil || len(items) != 2 {
		t.Fatalf("%d items, %v; want 2", len(items), err)
	}
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "conversations.json:2: conversation 2 skipped: ") || !strings.Contains(warns[0], fmt.Sprint(convCap)) {
		t.Errorf("warnings %q, want conversation 2 on line 2 skipped, naming the cap", warns)
	}
	if alloc > uint64(len(data))/2 {
		t.Errorf("%d KiB allocated for a %d KiB file: the skipped conversation was held", alloc>>10, len(data)>>10)
	}
}

// A conversations.json in a zip that inflates past maxZipMember is refused
// before it is read (a 2 MB zip inflating to 2 GB ran over 120 s), naming
// the zip, the member, the cap and what to do; archive/zip itself refuses a
// member inflating past the size its header claims.
func TestChatGPTZipCap(t *testing.T) {
	const zipCap = 64 << 10
	capped := Options{DryRun: true, Now: testNow, limits: limits{zipMember: zipCap}}
	data := paddedExport(strings.Repeat(" ", 2*zipCap), "between")
	dir := t.TempDir()
	write := func(name string, raw bool) string {
		t.Helper()
		p := filepath.Join(dir, name)
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		if raw {
			// A header claiming 100 bytes in front of the whole member.
			var deflated bytes.Buffer
			fw := zip.NewWriter(&deflated)
			w, _ := fw.Create("x")
			w.Write(data)
			fw.Close()
			zr, _ := zip.NewReader(bytes.NewReader(deflated.Bytes()), int64(deflated.Len()))
			h := zr.File[0].FileHeader
			h.Name, h.UncompressedSize64 = "export/conversations.json", 100
			w, err := zw.CreateRaw(&h)
			if err != nil {
				t.Fatal(err)
			}
			r, _ := zr.File[0].OpenRaw()
			b := make([]byte, zr.File[0].CompressedSize64)
			r.Read(b)
			w.Write(b)
		} else {
			w, _ := zw.Create("export/conversations.json")
			w.Write(data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	v := newVault(t, nil)
	honest := write("honest.zip", false)
	_, err := Run(v, kindChatGPT, honest, capped)
	for _, want := range []string{honest + ": export/conversations.json inflates to ", fmt.Sprint(zipCap), "unzip the export"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	lying := write("lying.zip", true)
	if _, err := Run(v, kindChatGPT, lying, capped); err == nil || !strings.Contains(err.Error(), "lying.zip/export/conversations.json:") || !strings.Contains(err.Error(), "download the export again") {
		t.Errorf("a member inflating past its header: error %v, want one naming the member", err)
	}

	// Under the cap, the zip imports.
	capped.limits.zipMember = int64(len(data))
	res, err := Run(v, kindChatGPT, honest, capped)
	if err != nil || len(res.Files) != 4 {
		t.Errorf("under the cap: %v, %d files; want 2 notes and 2 pointers (refused %v)", err, len(res.Files), res.Refused)
	}
}

// BenchmarkParseChatGPTWhitespace shows time linear in the padding:
// ns/op doubles with the size (json.Decoder's peek was quadratic).
func BenchmarkParseChatGPTWhitespace(b *testing.B) {
	for _, mib := range []int{8, 16, 32} {
		data := paddedExport(strings.Repeat(" \n", mib<<19), "between")
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := parseChatGPT(bytes.NewReader(data), "conversations.json", env{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
