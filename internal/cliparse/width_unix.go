//go:build unix

package cliparse

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalWidth is f's terminal's width in columns, or 0.
func terminalWidth(f *os.File) int {
	if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil {
		return int(ws.Col)
	}
	return 0
}
