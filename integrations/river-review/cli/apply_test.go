package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/npmtest"
	"github.com/plangate-gc/plangate-gc/internal/upstream"
)

// apply runs apply.sh on dir and returns its output and exit code.
func apply(t *testing.T, dir string) ([]byte, int) {
	t.Helper()
	cmd := exec.Command("sh", "apply.sh", dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("apply.sh: %v", err)
		}
	}
	return out, cmd.ProcessState.ExitCode()
}

// patched returns a writable copy of the upstream snapshot with the
// change applied.
func patched(t *testing.T) string {
	t.Helper()
	dir := upstream.Copy(t)
	if out, code := apply(t, dir); code != 0 {
		t.Fatalf("apply.sh: exit %d\n%s", code, out)
	}
	return dir
}

// TestApplyAddsOnlyItsOwnLines: src/cli.mjs gains exactly the three
// insertions (5 lines) and nothing else changes in it; re-applying changes
// nothing; the new files are ours, byte for byte.
func TestApplyAddsOnlyItsOwnLines(t *testing.T) {
	dir := upstream.Copy(t)
	orig, err := os.ReadFile(filepath.Join(dir, "src/cli.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	var after [2][]byte
	for i := range after {
		if out, code := apply(t, dir); code != 0 {
			t.Fatalf("apply.sh (run %d): exit %d\n%s", i+1, code, out)
		}
		after[i], _ = os.ReadFile(filepath.Join(dir, "src/cli.mjs"))
	}
	if !bytes.Equal(after[0], after[1]) {
		t.Error("a second apply.sh changed src/cli.mjs again")
	}
	added := []string{
		"import { runGcCommand } from './commands/gc.mjs';\n",
		"  gc [options]          Collect stale artifacts with river-gc (dry-run unless --force;\n",
		"                        every option is passed to river-gc: river gc --help)\n",
		"  // river gc owns every argument after `gc` (src/commands/gc.mjs).\n",
		"  if (argv[0] === 'gc') return runGcCommand(argv.slice(1));\n",
	}
	back := string(after[0])
	for _, line := range added {
		if strings.Count(back, line) != 1 {
			t.Fatalf("src/cli.mjs holds %q %d times, want once", line, strings.Count(back, line))
		}
		back = strings.Replace(back, line, "", 1)
	}
	if back != string(orig) {
		t.Error("apply.sh changed src/cli.mjs beyond its five lines")
	}
	for ours, theirs := range map[string]string{
		"gc.mjs":          "src/commands/gc.mjs",
		"cli-gc.test.mjs": "tests/cli-gc.test.mjs",
		"river-gc.md":     "pages/guides/river-gc.md",
		"river-gc.en.md":  "pages/guides/river-gc.en.md",
	} {
		a, _ := os.ReadFile(ours)
		b, err := os.ReadFile(filepath.Join(dir, theirs))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s is not %s (%v)", theirs, ours, err)
		}
	}
}

// TestApplyStopsAtAMissingAnchor: when upstream's cli.mjs no longer has an
// anchor line, apply.sh says which, exits 1 and changes nothing.
func TestApplyStopsAtAMissingAnchor(t *testing.T) {
	src := filepath.Join(upstream.Dir(t), "src/cli.mjs")
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for what, anchor := range map[string]string{
		"the import of runGcCommand":           "import { severityToPriority } from './lib/finding-format.mjs';\n",
		"the gc line of printHelp":             "  eval                  Run review fixtures evaluation",
		"the gc dispatch at the start of main": "async function main(argv = process.argv.slice(2)) {\n",
	} {
		t.Run(what, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "src"), 0o755)
			os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644)
			moved := bytes.Replace(orig, []byte(anchor), []byte("// moved\n"), 1)
			os.WriteFile(filepath.Join(dir, "src/cli.mjs"), moved, 0o644)
			out, code := apply(t, dir)
			if code != 1 || !strings.Contains(string(out), "cannot place "+what+": its anchor line occurs 0 times") {
				t.Errorf("apply.sh: exit %d\n%s", code, out)
			}
			if now, _ := os.ReadFile(filepath.Join(dir, "src/cli.mjs")); !bytes.Equal(now, moved) {
				t.Error("src/cli.mjs was changed")
			}
			if ents, _ := os.ReadDir(filepath.Join(dir, "src")); len(ents) != 1 {
				t.Errorf("apply.sh left %d entries in src/, want only cli.mjs", len(ents))
			}
		})
	}
}

// TestUpstreamSuitePassesWithTheChange runs `npm test` (upstream's
// `node --test`) in the patched snapshot. The snapshot keeps upstream's
// source but not its tests/, so what runs is tests/cli-gc.test.mjs (with
// a fake river-gc: arguments, exit codes 0/1/2, SIGINT/SIGTERM forwarding,
// the binary search) and the one module node's default pattern matches
// (src/lib/test-impact.mjs); the full suite is TestUpstreamFullSuite.
func TestUpstreamSuitePassesWithTheChange(t *testing.T) {
	dir := patched(t)
	out, errOut, code := npmtest.Run(t, dir, nil, "npm", "test")
	if code != 0 || !bytes.Contains(out, []byte("\n# fail 0\n")) || !bytes.Contains(out, []byte("ok 2 - river gc\n")) {
		t.Fatalf("npm test: exit %d\n%s\n%s", code, out, errOut)
	}
}

// EnvCheckout names a full River Review checkout at c36106a9 with its
// dependencies installed (npm ci --omit=dev --ignore-scripts is enough).
const EnvCheckout = "RIVER_REVIEW_CHECKOUT"

// TestUpstreamFullSuite applies the change to a copy of the checkout named
// by RIVER_REVIEW_CHECKOUT and runs its whole `npm test` (1306 tests at
// c36106a9, about three minutes, offline).
func TestUpstreamFullSuite(t *testing.T) {
	src := os.Getenv(EnvCheckout)
	if src == "" {
		t.Skip(EnvCheckout + " is not set: upstream's full test suite is not run (see docs/decisions.md 94)")
	}
	if testing.Short() {
		t.Skip("-short: upstream's full test suite is not run")
	}
	dir := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dir, rel)
		switch {
		case rel == ".git":
			return filepath.SkipDir
		case rel == "node_modules":
			if err := os.Symlink(p, target); err != nil {
				return err
			}
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&os.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	if out, code := apply(t, dir); code != 0 {
		t.Fatalf("apply.sh: exit %d\n%s", code, out)
	}
	// upstream's tests make git repositories: the full PATH.
	out, errOut, code := npmtest.Run(t, dir, []string{"PATH=" + os.Getenv("PATH")}, "npm", "test")
	if code != 0 || !bytes.Contains(out, []byte("\n# fail 0\n")) || !bytes.Contains(out, []byte("\n# cancelled 0\n")) {
		t.Fatalf("npm test: exit %d\n%s\n%s", code, out, errOut)
	}
}
