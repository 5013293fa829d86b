//go:build linux

package gitindex

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkTracked reads a real 100,000-entry index written by git. The
// "git-ls-files" case is the baseline: git itself listing the same index.
func BenchmarkTracked(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not found on PATH")
	}
	dir := b.TempDir()
	run := func(stdin string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("", "init", "-q")
	var info strings.Builder
	const empty = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
	for i := range 100_000 {
		fmt.Fprintf(&info, "100644 %s\tsrc/module%03d/pkg%02d/file_%05d.go\n", empty, i/1000, i/100%10, i)
	}
	run(info.String(), "update-index", "--index-info")
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer unix.Close(fd)
	for _, v := range []string{"2", "4"} {
		run("", "update-index", "--index-version", v)
		b.Run("git-ls-files/v"+v, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cmd := exec.Command("git", "ls-files", "-z")
				cmd.Dir = dir
				if _, err := cmd.Output(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Tracked/v"+v, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := Tracked(fd)
				if err != nil || s.Len() != 100_000 {
					b.Fatalf("Tracked: Len %d, %v", s.Len(), err)
				}
			}
		})
	}
}
