package vault

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mem.yaml over maxConfigSize is refused before YAML sees it (every
// command reads it: a 50 MB file cost seconds and hundreds of MB in each),
// with an error naming the file, its size and the cap; one at the cap loads.
func TestConfigSizeCap(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	path := filepath.Join(root, ConfigFile)
	settings := "lint:\n  max_file_size: 4096\n"
	pad := func(n int) []byte {
		b := bytes.Repeat([]byte("# padding\n"), n/10+1)
		return append([]byte(settings), b[:n-len(settings)]...)
	}

	if err := os.WriteFile(path, pad(maxConfigSize), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(root)
	if err != nil || c.Lint.MaxFileSize != 4096 {
		t.Fatalf("mem.yaml of exactly %d bytes: %v, max_file_size %d", maxConfigSize, err, c.Lint.MaxFileSize)
	}

	big := 3 * maxConfigSize
	if err := os.WriteFile(path, pad(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = loadConfig(root)
	if err == nil {
		t.Fatalf("a %d-byte mem.yaml loaded", big)
	}
	for _, want := range []string{path + ":", fmt.Sprint(big), fmt.Sprint(maxConfigSize), "remove what is not a setting"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := Open(root); err == nil {
		t.Error("Open accepted a vault whose mem.yaml is over the cap")
	}
}
