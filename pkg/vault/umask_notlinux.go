//go:build unix && !linux

package vault

func readUmask() int { return swapUmask() }
