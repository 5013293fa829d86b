package sweep

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

	"golang.org/x/sys/unix"
)

// childEnv, when set, makes the test binary run Delete with the root and
// targets it names (JSON) and print the Report: the unprivileged half of
// the permission test.
const childEnv = "SWEEP_TEST_CHILD"

type childArgs struct {
	Root    string
	Targets []Target
}

func TestMain(m *testing.M) {
	if arg := os.Getenv(childEnv); arg != "" {
		var a childArgs
		if err := json.Unmarshal([]byte(arg), &a); err != nil {
			os.Exit(3)
		}
		if err := json.NewEncoder(os.Stdout).Encode(Delete(a.Root, a.Targets, Options{})); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var epoch = time.Unix(1_600_000_000, 123_456_789)

func write(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, epoch, epoch); err != nil {
		t.Fatal(err)
	}
}

// target records rel's identity the way scan does.
func target(t testing.TB, root, rel string) Target {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(filepath.Join(root, rel), &st); err != nil {
		t.Fatal(err)
	}
	return Target{Path: rel, Dev: st.Dev, Ino: st.Ino, Size: st.Size, MtimeNs: st.Mtim.Sec*1e9 + st.Mtim.Nsec}
}

func exists(root, rel string) bool {
	_, err := os.Lstat(filepath.Join(root, rel))
	return err == nil
}

// withResolver runs f once with openat2 (skipped when the kernel or a
// seccomp filter refuses it) and once with the forced openat chain, and
// checks that the intended resolver was the one used.
func withResolver(t *testing.T, f func(t *testing.T)) {
	for _, mode := range []string{"openat2", "chain"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "openat2" && !openat2Works(t) {
				t.Skip("openat2 unavailable here")
			}
			disableOpenat2 = mode == "chain"
			used := map[string]int{}
			testHookResolver = func(via string) { used[via]++ }
			t.Cleanup(func() { disableOpenat2, testHookResolver, testHookBeforeResolve = false, nil, nil })
			f(t)
			for via := range used {
				if via != mode {
					t.Errorf("resolver %q used in %s mode (%v)", via, mode, used)
				}
			}
		})
	}
}

func openat2Works(t *testing.T) bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, t.TempDir(), &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

// runAsNobody re-executes this test binary as uid/gid 65534 to delete
// targets below root, and decodes its Report. It skips unless running as
// root. The binary is copied into base because go test's build directory
// is private to root.
func runAsNobody(t *testing.T, base, root string, targets []Target) Report {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch to an unprivileged user")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "sweep.test")
	copyFile(t, self, bin)
	arg, err := json.Marshal(childArgs{Root: root, Targets: targets})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(arg))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child delete: %v\n%s", err, stderr.String())
	}
	var rep Report
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("child output %q: %v", out, err)
	}
	return rep
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
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

// publicTempDir returns a fresh directory other users can traverse.
func publicTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sweep-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
