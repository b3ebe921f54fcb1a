//go:build !unix

package vault

// readUmask: there is no umask; files are 0666 (the system's ACLs decide).
func readUmask() int { return 0 }
