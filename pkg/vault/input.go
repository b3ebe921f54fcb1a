package vault

import (
	"fmt"
	"io"
	"os"
)

// OpenInput opens a file a person named as input (`mem note --file`, an
// import's source). Only a regular file is opened: /dev/zero would be read
// forever and a FIFO waits for a writer that may never come, so both are
// refused at once (issue 28: `mem import memory-md /dev/zero` grew to 4.9 GB).
func OpenInput(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%s, not a regular file", modeName(fi.Mode()))}
	}
	return os.Open(path)
}

// ReadInput reads the regular file path through OpenInput, at most limit
// bytes: a larger file is an error naming the limit, read no further.
func ReadInput(path string, limit int64) ([]byte, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("over the %d bytes mem reads from it", limit)}
	}
	return data, err
}

func modeName(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a file"
}
