//go:build linux

package sweep

// Accept -update, so that `go test ./... -update` runs in every package;
// this package has no golden files of its own.
import _ "github.com/plangate-gc/plangate-gc/internal/golden"
