package scan

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/skill"
)

// childEnv, when set, makes the test binary run one Scan of the memory
// scope below the root it names and print the Result as JSON: the
// unprivileged half of the permission tests.
const childEnv = "SCAN_TEST_CHILD_ROOT"

func TestMain(m *testing.M) {
	if root := os.Getenv(childEnv); root != "" {
		res := Scan(root, skill.ScopeMemory, Options{Metadata: true})
		if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// epoch is an arbitrary fixed mtime, far from any metadata timestamp used.
var epoch = time.Unix(1_600_000_000, 123_456_789)

// write creates root/rel with content and mtime, creating parents.
func write(t testing.TB, root, rel, content string, mtime time.Time) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t testing.TB, root, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, root, rel string) {
	t.Helper()
	mkdir(t, root, filepath.Dir(rel))
	if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
		t.Fatal(err)
	}
}

func paths(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func find(files []File, p string) (File, bool) {
	for _, f := range files {
		if f.Path == p {
			return f, true
		}
	}
	return File{}, false
}

func hasNote(notes []Note, path, substr string) bool {
	for _, n := range notes {
		if n.Path == path && strings.Contains(n.Message, substr) {
			return true
		}
	}
	return false
}

// scanWithin runs Scan and fails the test if it does not return in time;
// a scan that opened a FIFO for reading would block forever.
func scanWithin(t *testing.T, d time.Duration, root string, scope skill.Scope, opts Options) Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- Scan(root, scope, opts) }()
	select {
	case r := <-done:
		return r
	case <-time.After(d):
		t.Fatalf("Scan(%s) did not return within %v (blocked on a FIFO?)", scope, d)
		return Result{}
	}
}

// runAsNobody re-executes this test binary as uid/gid 65534 to scan root,
// and decodes its Result. It skips unless the test runs as root. The binary
// is copied next to root because go test's build directory is private.
func runAsNobody(t *testing.T, base, root string) Result {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch to an unprivileged user")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "scan.test")
	copyFile(t, self, bin, 0o755)
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+root)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child scan: %v\n%s", err, stderr.String())
	}
	var res Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("child output %q: %v", out, err)
	}
	return res
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// publicTempDir returns a fresh directory that other users can traverse
// (t.TempDir's parents are private to root).
func publicTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "scan-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
