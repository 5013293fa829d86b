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

// changed lists, per file, what apply.sh adds (or what it puts in place of
// a line): undoing exactly these must give upstream's file back.
var changed = map[string][][2]string{
	"src/cli.mjs": {
		{"import { runGcCommand } from './commands/gc.mjs';\n", ""},
		{"  gc [options]          Collect stale artifacts with river-gc (dry-run unless --force;\n" +
			"                        every option is passed to river-gc: river gc --help)\n", ""},
		{"  // river gc owns every argument after `gc` (src/commands/gc.mjs).\n" +
			"  if (argv[0] === 'gc') return runGcCommand(argv.slice(1));\n", ""},
	},
	"runners/cli/src/index.mjs": {
		{"import { runGcCommand } from './commands/gc.mjs';\n", ""},
		{"// river gc: listed here for help; river-gc owns every argument after `gc`\n" +
			"// (./commands/gc.mjs), so it runs before commander parses anything.\n" +
			"program\n  .command('gc')\n" +
			"  .description('Collect stale artifacts with river-gc (dry-run unless --force; river gc --help)')\n" +
			"  .allowUnknownOption()\n  .allowExcessArguments();\n\n", ""},
		{"if (process.argv[2] === 'gc') {\n  process.exitCode = await runGcCommand(process.argv.slice(3));\n" +
			"} else {\n  program.parse();\n}\n", "program.parse();\n"},
	},
}

// TestApplyAddsOnlyItsOwnLines: each CLI file gains exactly its listed
// changes and nothing else; re-applying changes nothing; the new files are
// ours, byte for byte.
func TestApplyAddsOnlyItsOwnLines(t *testing.T) {
	t.Parallel()
	dir := upstream.Copy(t)
	orig := map[string][]byte{}
	for f := range changed {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		orig[f] = b
	}
	var after [2]map[string][]byte
	for i := range after {
		if out, code := apply(t, dir); code != 0 {
			t.Fatalf("apply.sh (run %d): exit %d\n%s", i+1, code, out)
		}
		after[i] = map[string][]byte{}
		for f := range changed {
			after[i][f], _ = os.ReadFile(filepath.Join(dir, f))
		}
	}
	for f, edits := range changed {
		if !bytes.Equal(after[0][f], after[1][f]) {
			t.Errorf("a second apply.sh changed %s again", f)
		}
		back := string(after[0][f])
		for _, e := range edits {
			if strings.Count(back, e[0]) != 1 {
				t.Fatalf("%s holds %q %d times, want once", f, e[0], strings.Count(back, e[0]))
			}
			back = strings.Replace(back, e[0], e[1], 1)
		}
		if back != string(orig[f]) {
			t.Errorf("apply.sh changed %s beyond its own lines", f)
		}
	}
	for ours, theirs := range map[string]string{
		"gc.mjs":          "src/commands/gc.mjs",
		"gc.mjs ":         "runners/cli/src/commands/gc.mjs",
		"cli-gc.test.mjs": "tests/cli-gc.test.mjs",
		"river-gc.md":     "pages/guides/river-gc.md",
		"river-gc.en.md":  "pages/guides/river-gc.en.md",
	} {
		a, _ := os.ReadFile(strings.TrimSpace(ours))
		b, err := os.ReadFile(filepath.Join(dir, theirs))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s is not %s (%v)", theirs, ours, err)
		}
	}
}

// TestApplyStopsAtAMissingAnchor: when one of upstream's CLI files no
// longer has an anchor, apply.sh says which, exits 1 and changes nothing,
// in neither file.
func TestApplyStopsAtAMissingAnchor(t *testing.T) {
	t.Parallel()
	src := upstream.Dir(t)
	files := []string{"src/cli.mjs", "runners/cli/src/index.mjs"}
	for _, tc := range []struct{ file, what, anchor string }{
		{"src/cli.mjs", "the import of runGcCommand", "import { severityToPriority } from './lib/finding-format.mjs';\n"},
		{"src/cli.mjs", "the gc line of printHelp", "  eval                  Run review fixtures evaluation"},
		{"src/cli.mjs", "the gc dispatch at the start of main", "async function main(argv = process.argv.slice(2)) {\n"},
		{"runners/cli/src/index.mjs", "the import of runGcCommand", "import { createCommand } from './commands/create.mjs';\n"},
		{"runners/cli/src/index.mjs", "the gc command and its dispatch", "program.parse();\n"},
	} {
		t.Run(tc.file+": "+tc.what, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644)
			want := map[string][]byte{}
			for _, f := range files {
				b, err := os.ReadFile(filepath.Join(src, f))
				if err != nil {
					t.Fatal(err)
				}
				if f == tc.file {
					b = bytes.Replace(b, []byte(tc.anchor), []byte("// moved\n"), 1)
				}
				os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
				os.WriteFile(filepath.Join(dir, f), b, 0o644)
				want[f] = b
			}
			out, code := apply(t, dir)
			if code != 1 || !strings.Contains(string(out), tc.file+": cannot place "+tc.what+": its anchor occurs 0 times") {
				t.Errorf("apply.sh: exit %d\n%s", code, out)
			}
			for _, f := range files {
				if now, _ := os.ReadFile(filepath.Join(dir, f)); !bytes.Equal(now, want[f]) {
					t.Errorf("%s was changed", f)
				}
				if _, err := os.Stat(filepath.Join(dir, filepath.Dir(f), "commands", "gc.mjs")); !os.IsNotExist(err) {
					t.Errorf("apply.sh copied gc.mjs next to %s (%v)", f, err)
				}
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
	t.Parallel()
	dir := patched(t)
	out, errOut, code := npmtest.Run(t, dir, nil, "npm", "test")
	if code != 0 || !bytes.Contains(out, []byte("\n# fail 0\n")) || !bytes.Contains(out, []byte("ok 2 - river gc\n")) ||
		!bytes.Contains(out, []byte("ok 3 - river gc (runners/cli)\n")) {
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
	t.Parallel()
	src := os.Getenv(EnvCheckout)
	if src == "" {
		t.Skip(EnvCheckout + " is not set: upstream's full test suite is not run (see docs/decisions/releases.md, decision 94)")
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
