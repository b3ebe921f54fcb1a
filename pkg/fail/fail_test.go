package fail

import (
	"errors"
	"fmt"
	"testing"
)

type refused struct{}

func (refused) Error() string { return "refused" }
func (refused) Kind() Kind    { return Check }

func TestOf(t *testing.T) {
	for _, c := range []struct {
		err  error
		want Kind
	}{
		{errors.New("no vault"), Environment},
		{refused{}, Check},
		{fmt.Errorf("remember: %w", refused{}), Check},
		{As(Usage, errors.New("bad id")), Usage},
		{fmt.Errorf("commit: %w", As(Skipped, errors.New("busy"))), Skipped},
	} {
		if got := Of(c.err); got != c.want {
			t.Errorf("Of(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if As(Check, nil) != nil {
		t.Error("As(kind, nil) is not nil")
	}
}
