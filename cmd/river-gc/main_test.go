//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/asnobody"
	"github.com/plangate-gc/plangate-gc/internal/testbin"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// nobody is the unprivileged uid and gid the permission scripts run
// river-gc as (tests run as root, which can read and delete anything).
const nobody = 65534

func TestMain(m *testing.M) {
	testbin.NoRaceExitSleep()
	testscript.Main(m, map[string]func(){
		// durationMs pinned to 0, so that the record compares with
		// goldens (the one field that varies between identical runs).
		// Progress lines off a terminal come every 10 s of wall time;
		// scripts keep them out of their goldens (internal/progress tests
		// the cadence with an injected ticker).
		"river-gc": func() {
			sinceMs = func(time.Time) int64 { return 0 }
			progressInterval = 24 * time.Hour
			// Allocated bytes depend on the file system: pinned to 0
			// unless a script asks for the real ones.
			pinAllocated = os.Getenv("RIVER_GC_TEST_REAL_ALLOCATION") == ""
			exit(main1())
		},
	})
}

// TestScripts runs river gc end to end (testdata/script/*.txtar) against
// trees built inside each script; -update rewrites the scripts' golden
// files. The real plangate-gc binary is built and put on PATH for the
// --emit-inventory pipe, and a world-executable copy of this test binary
// serves as river-gc for runas-nobody.
func TestScripts(t *testing.T) {
	t.Parallel()
	// Script work directories and the tools live in directories that uid
	// 65534 may traverse (t.TempDir and testscript's own are 0700).
	work := worldTempDir(t, "river-gc-work-")
	tools := worldTempDir(t, "river-gc-tools-")
	buildPlangateGC(t, tools)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if raceBuild {
		self = plainScriptCommand(t, tools)
	}
	nobodyBin := filepath.Join(tools, "nobody", "river-gc")
	if err := asnobody.CopyExecutable(self, nobodyBin); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		WorkdirRoot:   work,
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", tools+string(filepath.ListSeparator)+env.Getenv("PATH"))
			env.Values[locksKey{}] = map[string]func() error{}
			env.Values[nobodyKey{}] = nobodyBin
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"chtime":       cmdChtime,
			"sparse":       cmdSparse,
			"mkfifo":       cmdMkfifo,
			"rawfile":      cmdRawfile,
			"copytree":     cmdCopytree,
			"tree":         cmdTree,
			"gone":         cmdGone,
			"removed":      cmdRemoved,
			"holdlock":     cmdHoldlock,
			"unlock":       cmdUnlock,
			"exits":        cmdExits,
			"chown-nobody": cmdChownNobody,
			"runas-nobody": cmdRunasNobody,
			"perm":         cmdPerm,
		},
	})
}

type (
	locksKey  struct{}
	nobodyKey struct{}
)

// TestProgressOnlyOnATerminal checks SPEC Part B's progress rule, which
// scripts cannot (their stderr is never a terminal): deletion progress is
// written to stderr only when stderr is a terminal and neither --quiet nor
// JSON on stdout is in use.
func TestProgressOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("river-gc") // installed on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		progress bool
	}{
		{"force", []string{"--force"}, true},
		{"force --json --output-file", []string{"--force", "--json", "--output-file", "result.json"}, true},
		{"force --json", []string{"--force", "--json"}, false},
		{"force --quiet", []string{"--force", "--quiet"}, false},
		{"dry-run", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			for _, p := range []string{".river/tmp/a", ".river/tmp/b"} {
				path := filepath.Join(root, p)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(path, old, old); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(bin, append([]string{"--now", "2025-11-29T00:00:00Z"}, tc.args...)...)
			cmd.Dir = root
			term, err := onTerminal(t, cmd, &cmd.Stderr, &cmd.Stdout)
			if err != nil {
				t.Fatalf("river-gc %v: %v", tc.args, err)
			}
			if got := strings.Contains(term.String(), "deleting 2/2"); got != tc.progress {
				t.Errorf("river-gc %v with stderr on a terminal: progress shown = %v, want %v; terminal got %q", tc.args, got, tc.progress, term.String())
			}
		})
	}
}

// onTerminal runs cmd with *term (cmd.Stdout or cmd.Stderr) on a
// pseudo-terminal and *other discarded, and returns what the terminal
// got and cmd's Wait error.
func onTerminal(t *testing.T, cmd *exec.Cmd, term, other *io.Writer) (bytes.Buffer, error) {
	t.Helper()
	ptmx, tty := openPty(t)
	*term, *other = tty, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var got bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&got, ptmx); close(done) }() // ends with EIO once the child exits
	err := cmd.Wait()
	<-done
	return got, err
}

// openPty opens a pseudo-terminal pair (master, slave).
func openPty(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	ptmx := os.NewFile(uintptr(fd), "/dev/ptmx")
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	return ptmx, tty
}

// worldTempDir makes a temporary directory that every user may traverse.
func worldTempDir(t *testing.T, pattern string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err = filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// buildPlangateGC puts the real skill binary in dir, so that the pipe
// scripts run `river-gc --emit-inventory | plangate-gc` with both real
// commands.
// plainScriptCommand builds this package's test binary without the race
// detector as dir/river-gc, where the scripts find it first, and returns
// it. Under go test -race the scripts start river-gc some 400 times, and
// each start of a race-built binary costs 0.25 s of CPU (0.05 s plain):
// most of the package's time on two cores. The script runs check
// outputs, not races; the package's and the run's own tests look for
// races in process (decision 382).
func plainScriptCommand(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "river-gc")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c (the scripts' river-gc without the race detector): %v\n%s", err, out)
	}
	return bin
}

func buildPlangateGC(t *testing.T, dir string) {
	t.Helper()
	if err := testbin.Copy(testbin.Build(t, testbin.PlangateGC), filepath.Join(dir, "plangate-gc")); err != nil {
		t.Fatal(err)
	}
}
