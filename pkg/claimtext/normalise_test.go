package claimtext

import (
	"strings"
	"testing"
)

func TestNormalise(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"Uses Go.", "uses go"},
		{"  uses\tGO \n", "uses go"},
		{"Uses Go...", "uses go"},
		{"Ünïcode ÇASE", "ünïcode çase"},
		{"a . .", "a"},
		{"\n\n", ""},
		{"v1.2 is out.", "v1.2 is out"},
	} {
		if got := Normalise(tc.in); got != tc.want {
			t.Errorf("Normalise(%q) = %q, want %q", tc.in, got, tc.want)
		}
		// Appended, what dst held stays as it was, its trailing full stop
		// and space too.
		if got := string(AppendNormalised([]byte("x. "), tc.in)); got != "x. "+tc.want {
			t.Errorf("AppendNormalised(%q, %q) = %q", "x. ", tc.in, got)
		}
	}
}

// Normalising twice changes nothing, and the result never starts or ends
// with a space: two texts that normalise alike stay alike.
func FuzzNormalise(f *testing.F) {
	for _, s := range []string{"Uses Go.", "a . .", "Ünïcode\u00a0ÇASE", " \t", "x\u2028y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := Normalise(s)
		if twice := Normalise(once); twice != once {
			t.Errorf("Normalise(%q) = %q, but Normalise(%q) = %q", s, once, once, twice)
		}
		if strings.HasPrefix(once, " ") || strings.HasSuffix(once, " ") {
			t.Errorf("Normalise(%q) = %q has an outer space", s, once)
		}
	})
}
