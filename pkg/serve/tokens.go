// Package serve is mem serve's HTTP door: the bearer tokens it accepts,
// and the handler that checks every request (Host, Origin, token, body
// size) before the MCP server of pkg/mcpserver answers it (spec §12).
package serve

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/vault"
)

// TokensFile is where the tokens' hashes are kept, under the vault's .mem/.
const TokensFile = "tokens.json"

// FirstToken is the name of the token mem serve makes on its first start.
const FirstToken = "first"

// tokenPrefix starts every token, so a scanner (or a person) recognises one.
const tokenPrefix = "mem_"

// Token is one token as stored: its name and the SHA-256 of its secret,
// never the secret itself.
type Token struct {
	Name     string    `json:"name"`
	SHA256   string    `json:"sha256"`
	ReadOnly bool      `json:"read_only,omitempty"`
	Created  time.Time `json:"created"`
}

type tokenFile struct {
	Tokens []Token `json:"tokens"`
}

// TokenPath is the vault's token file.
func TokenPath(v *vault.Vault) string { return filepath.Join(v.StateDir(), TokensFile) }

// validName keeps a token's name to what generated.by can carry as is.
var validName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,31}$`) })

// readTokens reads the token file; a missing one holds no token.
func readTokens(path string) ([]Token, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f tokenFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %v: remove the file to start over (every client then needs a new token from mem token add)", path, err)
	}
	return f.Tokens, nil
}

// writeTokens replaces the token file atomically, readable by its owner only.
func writeTokens(path string, tokens []Token) error {
	data, err := json.MarshalIndent(tokenFile{Tokens: tokens}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return vault.WriteFileAtomic(path, append(data, '\n'), vault.StateFileMode)
}

// hash is what is stored of a secret.
func hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// AddToken makes a token named name and returns its secret, which is
// shown once and never stored. The work is one small file: ctx is checked
// once, with the lock held, before the file is written.
func AddToken(ctx context.Context, v *vault.Vault, name string, readOnly bool, now time.Time) (string, error) {
	if !validName().MatchString(name) {
		return "", fail.As(fail.Usage, fmt.Errorf("token name %q: use 1 to 32 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit", name))
	}
	unlock, err := v.Lock("tokens")
	if err != nil {
		return "", err
	}
	defer unlock()
	path := TokenPath(v)
	tokens, err := readTokens(path)
	if err != nil {
		return "", err
	}
	if slices.ContainsFunc(tokens, func(t Token) bool { return t.Name == name }) {
		return "", fail.As(fail.Usage, fmt.Errorf("a token named %s exists: revoke it first (mem token revoke %s) or choose another name", name, name))
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	secret := tokenPrefix + hex.EncodeToString(raw[:])
	tokens = append(tokens, Token{Name: name, SHA256: hash(secret), ReadOnly: readOnly, Created: now.UTC()})
	if err := fail.Stopped(ctx, "mem token add (no token was added)"); err != nil {
		return "", err
	}
	if err := writeTokens(path, tokens); err != nil {
		return "", err
	}
	return secret, nil
}

// ListTokens returns the tokens, by name. The work is one small file: ctx
// is checked once, before it is read.
func ListTokens(ctx context.Context, v *vault.Vault) ([]Token, error) {
	if err := fail.Stopped(ctx, "mem token list"); err != nil {
		return nil, err
	}
	tokens, err := readTokens(TokenPath(v))
	slices.SortFunc(tokens, func(a, b Token) int { return strings.Compare(a.Name, b.Name) })
	return tokens, err
}

// RevokeToken removes the token named name; a running mem serve refuses
// it from its next request on. The work is one small file: ctx is checked
// once, with the lock held, before the file is written.
func RevokeToken(ctx context.Context, v *vault.Vault, name string) error {
	unlock, err := v.Lock("tokens")
	if err != nil {
		return err
	}
	defer unlock()
	path := TokenPath(v)
	tokens, err := readTokens(path)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(tokens, func(t Token) bool { return t.Name == name })
	if i < 0 {
		return fail.As(fail.Usage, fmt.Errorf("no token named %q: mem token list shows them", name))
	}
	if err := fail.Stopped(ctx, "mem token revoke (the token was kept)"); err != nil {
		return err
	}
	return writeTokens(path, slices.Delete(tokens, i, i+1))
}

// Tokens answers which token a request's secret is, re-reading the file
// whenever it changed (mem token add and revoke replace it by rename), so
// a token added or revoked counts from the next request.
type Tokens struct {
	path string
	mu   sync.Mutex
	info os.FileInfo // of the file last read; nil when there was none
	list []Token
	err  error
}

// NewTokens reads the vault's tokens as the server will.
func NewTokens(v *vault.Vault) *Tokens { return &Tokens{path: TokenPath(v)} }

// current is the token list as the file is now.
func (t *Tokens) current() ([]Token, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	info, err := os.Stat(t.path)
	if err != nil {
		info = nil
	}
	if t.list != nil || t.err != nil || t.info != nil {
		same := (info == nil && t.info == nil) ||
			(info != nil && t.info != nil && os.SameFile(info, t.info) && info.ModTime().Equal(t.info.ModTime()) && info.Size() == t.info.Size())
		if same {
			return t.list, t.err
		}
	}
	t.info = info
	t.list, t.err = readTokens(t.path)
	return t.list, t.err
}

// Lookup returns the token whose secret this is. Every stored hash is
// compared in constant time, so the time taken says nothing of which
// bytes matched.
func (t *Tokens) Lookup(secret string) (Token, bool, error) {
	list, err := t.current()
	if err != nil {
		return Token{}, false, err
	}
	h := []byte(hash(secret))
	var found Token
	ok := false
	for _, tok := range list {
		if subtle.ConstantTimeCompare(h, []byte(tok.SHA256)) == 1 {
			found, ok = tok, true
		}
	}
	return found, ok, nil
}
