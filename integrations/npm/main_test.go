package npm

import (
	"os"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/npmtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	npmtest.Cleanup()
	os.Exit(code)
}
