package vaulttest

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
)

// ProcessTests runs M with twice as many parallel tests at once as there
// are CPUs unless -parallel is given. A test that runs mem and git spends
// most of its time waiting for the processes it starts, so Go's default
// (GOMAXPROCS) leaves a quiet 2-core machine partly idle and, on a busy
// one, gives the package half the share of the CPU it gets with twice the
// processes (docs/performance.md, "The test suite"). It is a TestingM, as
// testscript.Main takes.
type ProcessTests struct{ M *testing.M }

func (p ProcessTests) Run() int {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
	return p.M.Run()
}
