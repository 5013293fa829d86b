//go:build !linux

// river gc's file-system side (descriptor-relative resolution, statx mount
// ids, renameat2, flock) is Linux's; elsewhere the command builds and says
// so instead of running with weaker guarantees.
package main

import (
	"fmt"
	"os"
	"runtime"

	_ "github.com/plangate-gc/plangate-gc/internal/rivergc/catalog" // river gc's words
	"github.com/plangate-gc/plangate-gc/render"
)

func main() {
	lang := render.English
	args := os.Args[1:]
	for i, a := range args {
		if a == "--lang=ja" || (a == "--lang" && i+1 < len(args) && args[i+1] == "ja") {
			lang = render.Japanese
		}
	}
	fmt.Fprintln(os.Stderr, "river-gc: "+render.Message(lang, "gc-linux-only", runtime.GOOS))
	os.Exit(2)
}
