package serve

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxBody bounds a request's body: far above any tool call (a note is at
// most a few hundred KB), far below what would hurt the server.
const MaxBody = 4 << 20

// The connection limits of NewServer: a client that sends its headers
// slowly is dropped after ReadHeaderTimeout, an idle keep-alive after
// IdleTimeout, and headers past MaxHeaderBytes are refused. No write or
// whole-read deadline: /mcp answers may stream for as long as a tool runs.
const (
	ReadHeaderTimeout = 10 * time.Second
	IdleTimeout       = 2 * time.Minute
	MaxHeaderBytes    = 64 << 10
	// sessionTimeout closes an MCP session no request used for this long.
	sessionTimeout = 30 * time.Minute
	// sessionless is the first MCP revision without initialize and sessions
	// (its requests carry it in Mcp-Protocol-Version).
	sessionless = "2026-07-28"
)

// Options is what the handler needs.
type Options struct {
	// Addr is the address mem serve listens on; its host is a name
	// requests may use in Host.
	Addr string
	// Hosts are the other names clients reach the server by (a proxy's
	// public name): Host and Origin may carry them.
	Hosts  []string
	Tokens *Tokens
	// MCP builds the MCP server that answers a token's requests
	// (mcpserver.New with the token's name and read-only flag); it is
	// built once per token and kept.
	MCP func(Token) *mcp.Server
	// Page is the review page, served at every path but /mcp; nil
	// serves /mcp alone.
	Page   *Page
	Logger *slog.Logger
}

// NewServer is the http.Server for h with mem serve's connection limits.
func NewServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		// A panic in one request is logged here and ends that request
		// only: net/http recovers it.
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

type tokenKey struct{}

// Handler checks every request in this order — Host, Origin, token, body
// size — and then routes /mcp to the token's MCP server; every other path
// goes, after Host and Origin, to the page, which has its own login.
func Handler(o Options) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	var mu sync.Mutex
	servers := map[Token]*mcp.Server{}
	server := func(r *http.Request) *mcp.Server {
		t, _ := r.Context().Value(tokenKey{}).(Token)
		t.Created, t.SHA256 = time.Time{}, "" // one server per name and access, however often re-added
		mu.Lock()
		defer mu.Unlock()
		if servers[t] == nil {
			servers[t] = o.MCP(t)
		}
		return servers[t]
	}
	opts := mcp.StreamableHTTPOptions{
		Logger:         o.Logger,
		SessionTimeout: sessionTimeout,
		// Host and Origin are checked before the token, below, against the
		// names this server is reached by (a proxy's too).
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        MaxBody,
	}
	sessions := mcp.NewStreamableHTTPHandler(server, &opts)
	// The SDK serves the sessionless revision (2026-07-28 and later) only
	// from a stateless handler, and the initialize handshake only from a
	// stateful one: each request goes to the one its revision needs.
	opts.Stateless = true
	stateless := mcp.NewStreamableHTTPHandler(server, &opts)
	mcpHandler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Protocol-Version") >= sessionless {
			stateless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
	// The SDK ties a session to the token that opened it (TokenInfo.UserID),
	// so another token cannot use a session id it learnt.
	bound := auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		t := ctx.Value(tokenKey{}).(Token)
		return &auth.TokenInfo{UserID: t.Name}, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(mcpHandler)

	mux := http.NewServeMux()
	mux.Handle("/mcp", bound)
	hosts := allowedHosts(o.Addr, o.Hosts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, hosts) {
			refuse(w, http.StatusForbidden, "the Host header names no address this server answers on: reach it by its address, or start mem serve with --allow-host NAME")
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r.Host, o.Hosts) {
			refuse(w, http.StatusForbidden, "cross-origin requests are refused")
			return
		}
		if o.Page != nil && r.URL.Path != "/mcp" {
			// The page logs in with its cookie, never a bearer token: a
			// token is an agent's, and what is done on the page is the
			// person's (spec §12).
			r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
			o.Page.ServeHTTP(w, r)
			return
		}
		t, ok := o.authenticate(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mem"`)
			refuse(w, http.StatusUnauthorized, "send Authorization: Bearer TOKEN with a token from mem token add")
			return
		}
		if r.ContentLength > MaxBody {
			refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes", MaxBody))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tokenKey{}, t)))
	})
}

// authenticate returns the token the request carries, when it is one.
func (o Options) authenticate(r *http.Request) (Token, bool) {
	scheme, secret, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return Token{}, false
	}
	t, ok, err := o.Tokens.Lookup(strings.TrimSpace(secret))
	if err != nil {
		// The file is broken: no token counts until it is fixed. The
		// log says so; the client learns nothing about the vault.
		o.Logger.Error("tokens", "error", err)
		return Token{}, false
	}
	return t, ok
}

// refuse answers with code and a line that says what to do; never anything
// of the vault.
func refuse(w http.ResponseWriter, code int, msg string) {
	http.Error(w, fmt.Sprintf("%d %s: %s", code, http.StatusText(code), msg), code)
}

// allowedHosts are the host names a request's Host may carry: the loopback
// names, the listen address's host (unless it is every address) and the
// names given.
func allowedHosts(addr string, names []string) []string {
	hosts := []string{"localhost", "127.0.0.1", "::1"}
	if h, _, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(h); h != "" && (ip == nil || !ip.IsUnspecified()) {
			hosts = append(hosts, strings.ToLower(h))
		}
	}
	for _, n := range names {
		hosts = append(hosts, strings.ToLower(n))
	}
	return hosts
}

// hostName is the host of a Host header or URL host, without its port.
func hostName(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	return strings.ToLower(strings.TrimSuffix(strings.Trim(h, "[]"), "."))
}

// hostAllowed guards against DNS rebinding: a page on another site whose
// name was pointed at this address still sends its own name as Host.
func hostAllowed(host string, allowed []string) bool {
	return host != "" && slices.Contains(allowed, hostName(host))
}

// originAllowed: a browser's request is answered only from this server's
// own origin (the host and port it was reached by) or a name given.
func originAllowed(origin, host string, names []string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // "null" among them: a sandboxed frame or a file
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	for _, n := range names {
		if hostName(u.Host) == strings.ToLower(n) {
			return true
		}
	}
	return false
}
