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

// TestWalkFailsWhenACommandFails: walk.sh fails on a quick start whose
// second command fails (and never runs the third), and on a README
// without a quick start; it passes one whose commands all succeed.
func TestWalkFailsWhenACommandFails(t *testing.T) {
	for _, tool := range []string{"git", "sh", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("walk.sh needs %s on PATH", tool)
		}
	}
	for _, tc := range []struct {
		name, readme string
		ok           bool
	}{
		{"all succeed", "# x\n\n## Quick start\n\n```sh\ntrue\necho ran > ../ran\n```\n\n## Next\n\n```sh\nfalse\n```\n", true},
		{"second fails", "# x\n\n## Quick start\n\n```sh\ntrue\nfalse\necho ran > ../ran\n```\n", false},
		{"no quick start", "# x\n\n## Install\n\n```sh\ntrue\n```\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			git := func(args ...string) {
				cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			git("init", "-q")
			if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte(tc.readme), 0o644); err != nil {
				t.Fatal(err)
			}
			git("add", "README.md")
			git("commit", "-q", "-m", "x")
			tmp := t.TempDir()
			cmd := exec.Command("sh", "walk.sh", repo)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			out, err := cmd.CombinedOutput()
			if (err == nil) != tc.ok {
				t.Fatalf("walk.sh: err %v, want ok=%v\n%s", err, tc.ok, out)
			}
		})
	}
}
