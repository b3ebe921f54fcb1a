package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"
)

// tokenProxy is the proxy on loopback between the suite and mem serve: the
// suite cannot send a header of its own, so it adds the token, and passes
// Host and Origin through untouched, so the DNS-rebinding scenario reaches
// mem serve's own checks.
//
// Full duplex: without it net/http's HTTP/1 server, as soon as the proxy
// flushes the response headers, reads what is left of the request body
// and closes it, while the proxy's transport is still forwarding that body
// (after its last bytes it reads once more, for the EOF). Under load that
// read came after mem serve had answered: the transport got "invalid Read
// on closed Body", closed its connection to mem serve mid-response ("use of
// closed network connection") and the suite's connection was cut — an SSE
// stream "terminated" in server-sse-multiple-streams, and a request of
// http-header-validation that never ended (node's http.request waits for
// an end that never comes) until the scenario's timeout.
func tokenProxy(target *url.URL, token string) http.Handler {
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = r.In.Host
			r.Out.Header.Set("Authorization", "Bearer "+token)
		},
		FlushInterval: -1, // stream SSE as it comes
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := http.NewResponseController(w).EnableFullDuplex(); err != nil {
			panic(err) // net/http's server always can
		}
		proxy.ServeHTTP(w, r)
	})
}

// TestTokenProxyBodyStillComing: the proxy must not cut a response that
// begins before the request body is all forwarded. Under load mem serve's
// answer came in that gap (between the transport's last read of the body
// and the read that sees its end); here the gap is held open on purpose:
// the client sends half the body, the backend answers with a first event
// at once, and only then does the client send the rest, which the backend
// reads before its second event. Both events, whole, or the proxy cut it.
// (Without full duplex the proxy also holds the headers back until the
// body is in, so the client sends the rest after half a second.)
func TestTokenProxyBodyStillComing(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer secret" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		http.NewResponseController(w).EnableFullDuplex()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: message\ndata: first\n\n")
		w.(http.Flusher).Flush()
		body, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "event: message\ndata: read %d bytes, %v\n\n", len(body), err)
	}))
	defer backend.Close()
	u, _ := url.Parse(backend.URL)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go http.Serve(ln, tokenProxy(u, "secret"))

	for i := range 20 {
		full := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`)
		pr, pw := io.Pipe()
		req, _ := http.NewRequest("POST", "http://"+ln.Addr().String()+"/mcp", pr)
		req.ContentLength = int64(len(full))
		headers := make(chan struct{})
		go func() {
			pw.Write(full[:20])
			select {
			case <-headers:
			case <-time.After(500 * time.Millisecond): // a proxy that holds the headers back until the body is in
			}
			pw.Write(full[20:])
			pw.Close()
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := http.DefaultClient.Do(req.WithContext(ctx))
		close(headers)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		want := fmt.Sprintf("event: message\ndata: first\n\nevent: message\ndata: read %d bytes, <nil>\n\n", len(full))
		if err != nil || !bytes.Equal(got, []byte(want)) {
			t.Fatalf("request %d: the proxy's answer %q, %v; want %q", i, got, err, want)
		}
	}
}
