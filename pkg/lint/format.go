package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mem-md/mem/pkg/rules"
)

// Formats lists the output formats of Write.
var Formats = []string{"text", "json", "github"}

// Write prints rep in one of Formats. Paths are printed as given in the
// report; the command rewrites them relative to the working directory first.
func Write(w io.Writer, rep *Report, format string) error {
	switch format {
	case "text":
		for _, p := range rep.Problems {
			if _, err := fmt.Fprintf(w, "%s:%d:%d: %s: %s: %s\n", p.Path, p.Line, p.Column, p.Severity, p.Rule, p.Message); err != nil {
				return err
			}
		}
		return nil
	case "json":
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			return err
		}
		_, err := w.Write(rules.EscapeJSON(b.Bytes())) // no raw C1 or bidi control for a terminal
		return err
	case "github":
		// GitHub workflow commands: one annotation per problem; data in a
		// property or message must escape %, CR, LF (and , : in properties).
		for _, p := range rep.Problems {
			level := "error"
			if p.Severity == Warning {
				level = "warning"
			}
			if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", level, ghProperty(p.Path), p.Line, p.Column, ghProperty("mem lint "+p.Rule), ghData(p.Message)); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown format %q: use %s", format, strings.Join(Formats, ", "))
}

var (
	ghDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func ghData(s string) string     { return ghDataEscaper.Replace(s) }
func ghProperty(s string) string { return ghPropertyEscaper.Replace(s) }
