// Package longtest is the one switch for the test suites too long for a
// newcomer's first `go test ./...`: soak runs, large generated stores, the
// differential runs against upstream in their CI size, a real S3 engine.
// They run when PLANGATE_GC_LONG=1 (.ci/run sets it) and otherwise skip
// with a message that names the switch, so a skip always says how to
// enable what it skipped.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that enables the long suites.
const Env = "PLANGATE_GC_LONG"

// Enabled reports whether the long suites run in this process.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Require skips t unless the long suites are enabled; what names the
// suite in the skip message ("the 20-kill SIGKILL test").
func Require(t testing.TB, what string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("%s: a long suite; set %s=1 to run it (.ci/run does)", what, Env)
	}
}
