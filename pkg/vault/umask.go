package vault

import (
	"os"
	"sync"
)

// FileMode is the mode of a file mem creates: 0666 filtered by the umask,
// as git (and any program creating a file with open(2)) does. The temp
// file every atomic write goes through is made 0600 by os.CreateTemp and
// then chmod-ed, which the umask does not filter, so mem applies it itself
// (issue 28: under umask 077 memory files, mem.yaml, views, the index
// manifest and backup.json were 0644). A file mem rewrites keeps its mode.
// Folders are made 0777 and the kernel applies the umask.
func FileMode() os.FileMode { return 0o666 &^ Umask() }

// StateFileMode is the mode of every file mem creates under .mem, whatever
// the umask: this machine's caches, index, locks and state are its user's
// alone (docs/security.md), as the 0700 folders they are in.
const StateFileMode os.FileMode = 0o600

// Umask is the process's umask, read once. On Linux it is read from
// /proc/self/status, which changes nothing; elsewhere it is set and
// restored once (umask(2) can only be read by setting it), at the first
// write, so a file another goroutine creates in that instant may miss the
// mask: mem creates none before its first write asks.
var Umask = sync.OnceValue(func() os.FileMode { return os.FileMode(readUmask()) })
