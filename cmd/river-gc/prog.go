//go:build linux

package main

import (
	"os"
	"strings"
)

// ProgEnv names the environment variable through which River Review's
// `river gc` tells river-gc the name it was called by, so that --help
// and usage errors show the command the user typed. Only "river gc" is
// taken; anything else keeps "river-gc". It changes help and usage text
// only, never what a run does.
const ProgEnv = "RIVER_GC_PROG"

// progName is the program name for help and usage text.
func progName() string {
	if os.Getenv(ProgEnv) == "river gc" {
		return "river gc"
	}
	return "river-gc"
}

// forProgram rewrites the example lines of a help text (those starting
// with two spaces and "river-gc ") and the lines that run river-gc
// through a shell construct ("source <(river-gc ") for prog.
func forProgram(text, prog string) string {
	if prog == "river-gc" {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		for _, lead := range []string{"  river-gc", "  source <(river-gc"} {
			if rest, ok := strings.CutPrefix(l, lead); ok && (rest == "" || rest[0] == ' ') {
				lines[i] = strings.Replace(lead, "river-gc", prog, 1) + rest
			}
		}
	}
	return strings.Join(lines, "\n")
}
