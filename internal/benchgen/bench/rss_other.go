//go:build !unix

package bench

import "os"

// maxRSS: no rusage here; the tables show 0 for memory.
func maxRSS(*os.ProcessState) int64 { return 0 }
