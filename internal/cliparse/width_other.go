//go:build !unix

package cliparse

import "os"

// terminalWidth is 0 where no terminal size is asked (COLUMNS or 80 then).
func terminalWidth(*os.File) int { return 0 }
