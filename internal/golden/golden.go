// Package golden registers the -update test flag. Every package with tests
// imports it, so `go test ./... -update` is accepted by every test binary
// and rewrites the goldens of the packages that have them.
package golden

import "flag"

// Update is true when the tests were run with -update.
var Update = flag.Bool("update", false, "rewrite golden files from the current output (review the diff)")
