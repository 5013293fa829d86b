// Package upstream gives tests a runnable copy of upstream River Review
// (the snapshot at c36106a9 kept beside the repository in
// ../shared/contracts/river-reviewer/upstream, MIT) with its production
// dependencies installed, so that integration tests run upstream's own
// modules on our real outputs. The snapshot is never modified and never
// copied into the repository: it is copied into a cache directory outside
// the tree, once per snapshot content, and `npm ci --omit=dev
// --ignore-scripts` is run there. Tests skip, saying so, without node,
// npm or the snapshot.
package upstream

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/contracts"
)

// EnvCache names an environment variable that overrides the cache
// directory (default: os.UserCacheDir()/plangate-gc/upstream).
const EnvCache = "PLANGATE_GC_UPSTREAM_CACHE"

var (
	once    sync.Once
	dir     string
	skipMsg string
	failMsg string
)

// Dir returns the directory of an installed copy of upstream River
// Review, or skips t (no node, no npm, no snapshot) or fails it (the
// install failed). The copy is shared by every test of the process and
// by later runs; tests must not modify it: use Copy for that.
func Dir(t testing.TB) string {
	t.Helper()
	src := filepath.Join(contracts.Dir(t), "upstream")
	once.Do(func() { dir, skipMsg, failMsg = install(src) })
	if skipMsg != "" {
		t.Skip(skipMsg)
	}
	if failMsg != "" {
		t.Fatal(failMsg)
	}
	return dir
}

// Copy returns a private, writable copy of the installed upstream tree in
// a temporary directory (node_modules is symlinked, not copied), for tests
// that patch upstream or write into it.
func Copy(t testing.TB) string {
	t.Helper()
	from := Dir(t)
	to := t.TempDir()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		target := filepath.Join(to, rel)
		if rel == "node_modules" {
			return errSkipLink(os.Symlink(p, target))
		}
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		}
		return copyFile(p, target)
	})
	if err != nil {
		t.Fatalf("copying upstream: %v", err)
	}
	return to
}

// errSkipLink turns a successful symlink into SkipDir.
func errSkipLink(err error) error {
	if err != nil {
		return err
	}
	return filepath.SkipDir
}

// Node runs `node args...` in dir with stdin and returns stdout; a
// non-zero exit fails t with stderr.
func Node(t testing.TB, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	out, errOut, code := NodeExit(t, dir, stdin, args...)
	if code != 0 {
		t.Fatalf("node %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// NodeExit runs `node args...` in dir and returns stdout, stderr and the
// exit code.
func NodeExit(t testing.TB, dir string, stdin []byte, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	return NodeEnvExit(t, dir, nil, stdin, args...)
}

// NodeEnvExit is NodeExit with env ("NAME=value") added to node's
// environment only: a test that runs in parallel with others cannot
// change the process's (t.Setenv).
func NodeEnvExit(t testing.TB, dir string, env []string, stdin []byte, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0"), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("node %s: %v", strings.Join(args, " "), err)
		}
	}
	return o.Bytes(), e.Bytes(), cmd.ProcessState.ExitCode()
}

// install copies src into the cache (keyed by the snapshot's content) and
// installs its production dependencies there, once; a lock file keeps
// concurrent test processes from installing the same copy twice.
func install(src string) (dir, skip, fail string) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", tool + " not found: tests that run upstream River Review's own code are skipped", ""
		}
	}
	key, err := contentKey(src)
	if err != nil {
		return "", "", fmt.Sprintf("reading the upstream snapshot %s: %v", src, err)
	}
	cache := os.Getenv(EnvCache)
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		cache = filepath.Join(base, "plangate-gc", "upstream")
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", "", fmt.Sprintf("upstream cache %s: %v", cache, err)
	}
	dir = filepath.Join(cache, key)
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", "", fmt.Sprintf("upstream cache lock: %v", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", "", fmt.Sprintf("upstream cache lock: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".installed")); err == nil {
		return dir, "", ""
	}
	os.RemoveAll(dir)
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		return "", "", fmt.Sprintf("copying upstream into %s: %v", dir, err)
	}
	cmd := exec.Command("npm", "ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Sprintf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, ".installed"), nil, 0o644); err != nil {
		return "", "", err.Error()
	}
	return dir, "", ""
}

// contentKey hashes the snapshot's file names and contents.
func contentKey(src string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		fmt.Fprintf(h, "%s\x00", rel)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(h, f)
		return err
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

// copyFile copies a regular file, keeping its mode.
func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	st, err := os.Stat(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, st.Mode().Perm())
}
