package render

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/vault"
)

// Emitted is what one render gives whoever shows it: its warnings, its
// explanation, and the view printed or written. mem render makes it here
// or the daemon makes it and sends it (pkg/daemon), so the command prints
// the same bytes either way.
type Emitted struct {
	Warn []string `json:"warn,omitempty"`
	// Refused: Strict refused the render; only its warnings are shown.
	Refused bool `json:"refused,omitempty"`
	// Explain is Result.Explain's text, with RunOptions.Explain.
	Explain string `json:"explain,omitempty"`
	// Output is the file the view was written to: Wrote is false when it
	// was up to date, Bytes the view's size.
	Output string `json:"output,omitempty"`
	Wrote  bool   `json:"wrote,omitempty"`
	Bytes  int    `json:"bytes,omitempty"`
	// Doc is the markdown view to print; Value the hook or json output,
	// as JSON text with no HTML escaping (a string, not raw JSON, so that
	// sending it as JSON does not escape it).
	Doc   []byte `json:"doc,omitempty"`
	Value string `json:"value,omitempty"`
}

// Emit writes r's view when it has an Output, and returns what to show.
func (r Rendered) Emit(explain bool) (Emitted, error) {
	e := Emitted{Warn: r.Warn, Refused: r.Refused}
	if r.Refused {
		return e, nil
	}
	if explain {
		var b bytes.Buffer
		if err := r.Result.Explain(&b); err != nil {
			return e, err
		}
		e.Explain = b.String()
	}
	var value any
	switch {
	case r.Output != "":
		wrote, err := r.Write(r.Result.Doc)
		e.Output, e.Wrote, e.Bytes = r.Output, wrote, len(r.Result.Doc)
		return e, err
	case r.Format == "hook":
		value = r.Result.Hook()
	case r.Format == "json":
		value = r.Result.JSON()
	default:
		e.Doc = r.Result.Doc
		return e, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value); err != nil {
		return e, err
	}
	e.Value = strings.TrimSuffix(b.String(), "\n")
	return e, nil
}

// RunEmit is Run with each render emitted (Emit): what mem render shows,
// whether it or the daemon runs it. On an error the renders before it are
// returned, the one that failed to write last. Once ctx is done it writes
// no further view (Run).
func RunEmit(ctx context.Context, v *vault.Vault, targets []Target, opts RunOptions) ([]Emitted, error) {
	done, err := Run(ctx, v, targets, opts)
	var out []Emitted
	for _, r := range done {
		if serr := fail.Stopped(ctx, stoppedRender); serr != nil {
			return out, serr
		}
		e, werr := r.Emit(opts.Explain)
		out = append(out, e)
		if werr != nil {
			return out, werr
		}
	}
	return out, err
}
