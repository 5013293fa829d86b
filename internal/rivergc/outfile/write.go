//go:build linux

package outfile

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// WriteAtomically has write fill a temporary file in path's directory and
// renames it to path (--output-file), so a reader never sees a
// half-written result; missing parent directories are created, the mode
// is 0644. Its error is an *Error.
func WriteAtomically(path string, write func(io.Writer) error) error {
	const flag = "output-file"
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &Error{Flag: flag, Err: err}
	}
	tmp, err := os.CreateTemp(dir, ".gc-result-*.tmp")
	if err != nil {
		return &Error{Flag: flag, Err: err}
	}
	defer os.Remove(tmp.Name()) // after a successful rename this is a no-op
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// Checked again at the last moment: what appeared at path since
		// the flags were validated is not ours to replace.
		err = checkRegularOrAbsent(path)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return &Error{Flag: flag, Path: path, Err: err}
	}
	return nil
}

// Append appends data to path (--summary-file), creating it 0644;
// O_NOFOLLOW refuses a symlink put there since the flags were checked.
// Its error is an *Error.
func Append(path string, data []byte) error {
	const flag = "summary-file"
	// O_NONBLOCK: a FIFO put at the path during the run must not hang us;
	// the descriptor itself is then checked, so what was swapped in since
	// the flags were validated (a FIFO, a hard link) is refused.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return &Error{Flag: flag, Err: err}
	}
	var st syscall.Stat_t
	switch err = syscall.Fstat(int(f.Fd()), &st); {
	case err != nil:
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		err = ErrNotRegular
	case st.Nlink > 1:
		err = ErrLinked
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &Error{Flag: flag, Path: path, Err: err}
	}
	return nil
}
