// Package eintr retries system calls interrupted by a signal (EINTR), the
// way os.ignoringEINTR does inside the standard library, so that scan and
// sweep need no hand-written retry loop per call site.
package eintr

import "golang.org/x/sys/unix"

// Retry calls f until it returns an error other than EINTR.
func Retry(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// Value calls f until it returns an error other than EINTR, and returns
// f's result.
func Value[T any](f func() (T, error)) (T, error) {
	for {
		v, err := f()
		if err != unix.EINTR {
			return v, err
		}
	}
}
