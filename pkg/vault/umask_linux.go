package vault

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// readUmask reads the Umask line of /proc/self/status (Linux 4.7 and
// later), falling back to setting and restoring it.
func readUmask() int {
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		s := bufio.NewScanner(f)
		for s.Scan() {
			if v, ok := strings.CutPrefix(s.Text(), "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return int(m)
				}
			}
		}
	}
	return swapUmask()
}
