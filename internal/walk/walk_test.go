// Package walk runs the README's quick start as a new user would (walk.sh):
// a fresh clone of HEAD, the commands exactly as written.
package walk

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
)

// TestReadmeQuickStartRunsAsWritten clones the repository's HEAD into a
// temporary folder and runs every command of the README's quick start
// there (walk.sh); it fails when one fails. Uncommitted changes are not
// walked: the walk is of what a clone gets.
func TestReadmeQuickStartRunsAsWritten(t *testing.T) {
	longtest.Require(t, "the README walk (clones HEAD and builds it)")
	for _, tool := range []string{"git", "sh", "awk", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the README walk needs %s on PATH", tool)
		}
	}
	top, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(top, ".git")); err != nil {
		t.Skipf("the README walk needs a git checkout (no .git in %s)", top)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "walk.sh", top)
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's quick start failed as written: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
