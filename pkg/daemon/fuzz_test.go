package daemon

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzHandle answers any request line a process of the vault's user could
// send on the socket (serveConn declines one that is no Request): none
// panics, an op the daemon does not know and a render with a relative path
// are declined, and a search or render it answers carries its answer.
// "$HOME" and "$ROOT" in a line stand for the daemon's home and vault, so
// requests get past the home check; a render's output outside the vault
// goes to a folder of the test instead, since a render writes its output.
func FuzzHandle(f *testing.F) {
	d, _ := exampleDaemon(f)
	start(f, d)
	outside := f.TempDir()
	for _, seed := range []string{
		`{"op":"status"}`,
		`{"op":"search","home":"$HOME","search":{"text":"checkout","limit":10,"now":"2026-11-29T12:00:00Z"}}`,
		`{"op":"search","home":"$HOME","search":{"text":"\"checkout flow\" -cart","limit":3,"type":"fact","now":"2026-11-29T12:00:00Z"}}`,
		`{"op":"search","home":"/elsewhere","search":{"text":"x","limit":1,"now":"2026-11-29T12:00:00Z"}}`,
		`{"op":"search","home":"$HOME","search":{"text":"x","limit":-1,"now":"2026-11-29T12:00:00Z"}}`,
		`{"op":"render","home":"$HOME","render":{"all":true,"options":{"now":"2026-11-29T12:00:00Z","cwd":"$ROOT"}}}`,
		`{"op":"render","home":"$HOME","render":{"targets":[{"Cwd":"$ROOT/code/webshop","Format":"hook"}],"options":{"now":"2026-11-29T12:00:00Z"}}}`,
		`{"op":"render","home":"$HOME","render":{"targets":[{"Cwd":"$ROOT/code/webshop","Output":"/tmp/view.md"}],"options":{"now":"2026-11-29T12:00:00Z"}}}`,
		`{"op":"render","home":"$HOME","render":{"targets":[{"Cwd":"code","Output":"x.md"}],"options":{"now":"2026-11-29T12:00:00Z"}}}`,
		`{"op":"mcp","tool":"search","input":{"query":"checkout"},"now":"2026-11-29T12:00:00Z"}`,
		`{"op":"mcp","tool":"recall","input":{"cwd":"$ROOT/code/webshop"},"now":"2026-11-29T12:00:00Z"}`,
		`{"op":"mcp","tool":"recall","input":[],"now":"2026-11-29T12:00:00Z"}`,
		`{"op":"mcp","tool":"nope","input":null}`,
		`{"op":"sync","home":"$HOME"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = []byte(strings.NewReplacer("$HOME", d.cfg.Home, "$ROOT", d.root).Replace(string(line)))
		var req Request
		if json.Unmarshal(line, &req) != nil {
			return
		}
		relative := false
		if r := req.Render; r != nil {
			relative = r.Options.Cwd != "" && !filepath.IsAbs(r.Options.Cwd)
			for i, tg := range r.Targets {
				relative = relative || tg.Output != "" && !filepath.IsAbs(tg.Output) || tg.Cwd != "" && !filepath.IsAbs(tg.Cwd)
				if filepath.IsAbs(tg.Output) && !strings.HasPrefix(filepath.Clean(tg.Output), d.root+string(filepath.Separator)) {
					r.Targets[i].Output = filepath.Join(outside, filepath.Clean(tg.Output))
				}
			}
		}
		resp := d.Handle(req)
		switch req.Op {
		case "status":
			if resp.Status == nil {
				t.Errorf("status answered without one: %+v", resp)
			}
		case "search":
			if resp.Declined == "" && resp.Search == nil {
				t.Errorf("%s: a search neither declined nor answered", line)
			}
		case "render":
			if relative && resp.Declined == "" {
				t.Errorf("%s: a render with a relative path was not declined", line)
			}
			if resp.Declined == "" && resp.Render == nil && resp.Error == "" {
				t.Errorf("%s: a render neither declined nor answered", line)
			}
		case "mcp":
		default:
			if resp.Declined == "" {
				t.Errorf("%s: op %q answered", line, req.Op)
			}
		}
	})
}
