//go:build !unix

package daemon

import "io/fs"

// ownerUID is not known here.
func ownerUID(fs.FileInfo) (int, bool) { return 0, false }
