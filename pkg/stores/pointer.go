package stores

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/viewfmt"
)

// The pointer lives in mem's splice zone, the one pair of markers mem
// owns in a file it shares with a person, at the top of the store.
const (
	zoneBegin    = viewfmt.Begin
	zoneEnd      = viewfmt.End
	pointerStart = "> mem: the vault at "
)

// pointer is the zone's one line for s: it names the vault and the folder
// the store speaks for, so it depends on the store alone and a second run
// from another directory changes nothing.
func pointer(vaultRoot string, s Store) string {
	return fmt.Sprintf("%s%s is canonical for %s: durable facts live there (ask `mem search` or the MCP recall tool; write with `mem remember`). This file holds harness notes only.",
		pointerStart, vaultRoot, s.Scope)
}

// What Point and Unpoint did to a store.
const (
	Pointed   = "pointed"
	Unchanged = "unchanged"
	Skipped   = "skipped"
	Removed   = "removed"
	NoPointer = "no pointer"
)

// Result is what one store got.
type Result struct {
	Path   string `json:"path"`
	Action string `json:"action"`
	Why    string `json:"why,omitempty"`
}

// Point writes the pointer at the top of every existing store loaded at
// start (after a frontmatter block, which must stay first). A store that
// already holds it is unchanged; one whose mem zone holds something else
// (a view spliced by mem render) is skipped: it is mem's output already.
func Point(list []Store, vaultRoot string) ([]Result, error) {
	var out []Result
	for _, s := range list {
		if !s.Exists || s.Loaded != "at start" {
			continue
		}
		data, err := os.ReadFile(s.Path)
		if err != nil {
			return out, err
		}
		nl := "\n"
		if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
			nl = "\r\n"
		}
		want := zoneBegin + nl + pointer(vaultRoot, s) + nl + zoneEnd + nl
		var next []byte
		if start, end, ok := findZone(data); ok {
			if !bytes.HasPrefix(data[start:], []byte(zoneBegin+nl+pointerStart)) {
				out = append(out, Result{s.Path, Skipped, "its mem zone holds a rendered view: the vault is its source already"})
				continue
			}
			if string(data[start:end]) == want {
				out = append(out, Result{s.Path, Unchanged, ""})
				continue
			}
			next = append(append(append([]byte{}, data[:start]...), want...), data[end:]...) // the vault moved
		} else {
			at := afterFrontmatter(data)
			next = append(append(append(append([]byte{}, data[:at]...), want...), nl...), data[at:]...)
		}
		if err := writeKeepingMode(s.Path, next); err != nil {
			return out, err
		}
		out = append(out, Result{s.Path, Pointed, ""})
	}
	return out, nil
}

// Unpoint removes the pointer zone and the blank line Point put after it,
// so the file is back byte for byte.
func Unpoint(list []Store) ([]Result, error) {
	var out []Result
	for _, s := range list {
		if !s.Exists {
			continue
		}
		data, err := os.ReadFile(s.Path)
		if err != nil {
			return out, err
		}
		start, end, ok := findZone(data)
		if !ok || !bytes.Contains(data[start:end], []byte(pointerStart)) {
			out = append(out, Result{s.Path, NoPointer, ""})
			continue
		}
		rest := data[end:]
		switch {
		case bytes.HasPrefix(rest, []byte("\r\n")):
			rest = rest[2:]
		case bytes.HasPrefix(rest, []byte("\n")):
			rest = rest[1:]
		}
		if err := writeKeepingMode(s.Path, append(append([]byte{}, data[:start]...), rest...)); err != nil {
			return out, err
		}
		out = append(out, Result{s.Path, Removed, ""})
	}
	return out, nil
}

// findZone is the byte range of the zone, from its begin line through its
// end line and that line's ending.
func findZone(data []byte) (start, end int, ok bool) {
	start = -1
	for off := 0; off < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		switch strings.TrimSpace(string(data[off:next])) {
		case zoneBegin:
			if start < 0 {
				start = off
			}
		case zoneEnd:
			if start >= 0 {
				return start, next, true
			}
		}
		off = next
	}
	return 0, 0, false
}

// afterFrontmatter is the offset just past a leading frontmatter block
// (Claude Code's memory files carry one), or 0.
func afterFrontmatter(data []byte) int {
	if !bytes.HasPrefix(data, []byte("---\n")) && !bytes.HasPrefix(data, []byte("---\r\n")) {
		return 0
	}
	for off := bytes.IndexByte(data, '\n') + 1; off < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		if strings.TrimRight(string(data[off:next]), "\r\n") == "---" {
			return next
		}
		off = next
	}
	return 0
}

// writeKeepingMode replaces the file atomically with its mode, through a
// symbolic link (a dotfiles CLAUDE.md) to its target, so the link stays.
func writeKeepingMode(path string, data []byte) error {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return vault.WriteFileAtomic(path, data, fi.Mode().Perm())
}
