//go:build linux

package local_test

import (
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/internal/backend/backendtest"
	disk "github.com/plangate-gc/plangate-gc/internal/backend/local"
)

// TestSuite runs the shared backend suite over a directory root: the
// disk passes what a bucket passes.
func TestSuite(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) backend.Backend {
		d, err := disk.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	})
}
