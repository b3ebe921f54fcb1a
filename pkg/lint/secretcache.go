package lint

import (
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// The secrets cache, .mem/cache/secrets, is a rules.Memo: for every file
// of the last whole-vault run, the SHA-256 of its text and where the
// secret scan found secrets in it and by which rule (offsets and rule
// numbers, never a secret). A whole-vault run scans only the files whose
// text it does not know; the scan (gitleaks' rules) is most of a cold
// run's time. The text is the truth: a file is recalled only when its
// bytes hash the same, whatever its stamp says; the memo names the rule
// set it was found with (its fingerprint of gitleaks' configuration and
// mem's rules) and the frame the binary (vault.WriteCache), so a change of
// either means every file is scanned again; a torn or damaged file is
// ignored and rewritten.
//
// Named runs (a pre-commit hook: a few files, usually just changed) scan
// their files without it: reading it would cost more than it saves.
const secretsMagic = "mem lint secrets\n"

var secretsRel = filepath.Join("cache", "secrets")

func secretsPath(v *vault.Vault) string { return filepath.Join(v.StateDir(), secretsRel) }

// ReadSecrets reads the memo; an empty one when there is none usable. A
// whole-vault run reads it, and so does the audit (wiring.Audit), which
// scans the same texts.
func ReadSecrets(v *vault.Vault) *rules.Memo {
	if payload, ok := vault.ReadCache(secretsPath(v), secretsMagic); ok {
		if m, err := rules.DecodeMemo(payload); err == nil {
			return m
		}
	}
	return rules.NewMemo()
}

// SaveSecrets writes the memo when it changed. Failing to write is not an
// error of the run: the next one scans again.
func SaveSecrets(v *vault.Vault, m *rules.Memo) {
	if !m.Changed() {
		return
	}
	payload, err := m.AppendBinary(nil)
	if err == nil {
		_ = vault.WriteCache(secretsPath(v), secretsMagic, payload)
	}
}

// uncacheSecrets drops the files rep found a secret in from the parse
// cache, which holds files' bytes (vault.Uncache): what lint tells a user
// to remove must not stay under .mem.
func uncacheSecrets(v *vault.Vault, rep *Report) {
	var rels []string
	for _, p := range rep.Problems { // sorted by path
		if strings.HasPrefix(p.Rule, "secret-") && (len(rels) == 0 || rels[len(rels)-1] != p.Path) {
			rels = append(rels, p.Path)
		}
	}
	if len(rels) > 0 {
		v.Uncache(rels)
	}
}
