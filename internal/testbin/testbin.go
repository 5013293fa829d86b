// Package testbin builds the module's commands for tests that run them as
// processes, once per content: every test binary of a `go test ./...`
// (go test runs packages in parallel) gets the same build, and a later
// run whose sources did not change reuses it.
//
// A build is kept in a cache outside the tree
// (os.UserCacheDir()/plangate-gc/bin, or $PLANGATE_GC_TESTBIN_CACHE) under
// a key of everything that decides its bytes: the files of the module's
// packages it is built from (as `go list -deps` names them, embedded
// files included), the versions of the other modules, the toolchain and
// target (`go env`), and the build flags and environment. Builds pass
// -buildvcs=false, so the VCS state, which the key does not hold, is not
// in the binary either.
//
// One lock file serializes the builds of the module's commands: two
// variants (say -trimpath with and without a version stamped in) share
// their compiled packages in Go's build cache, so the second is only a
// link. A tool pinned in another module file (Spec.ModFile) shares
// nothing with them and has a lock of its own.
// Each process that uses an entry holds a shared lock on it until it
// exits, and pruning (the entries of a variant beyond its newest few, or
// unused for a week) removes only entries nobody holds.
package testbin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/modfiles"
)

// EnvCache overrides the cache directory.
const EnvCache = "PLANGATE_GC_TESTBIN_CACHE"

// Spec says what to build.
type Spec struct {
	// Package is the main package, relative to the module's root
	// ("./cmd/river-gc"); the binary is named after its last element.
	Package string
	// Flags are go build flags ("-race", "-trimpath", "-ldflags=-X ...").
	Flags []string
	// Env is added to the build's environment ("CGO_ENABLED=0",
	// "GOARCH=arm64").
	Env []string
	// ModFile, when set, is the module file Package is resolved with,
	// relative to the module's root ("internal/tools/go.mod" for the
	// pinned tools); Package is then an import path.
	ModFile string
}

// RiverGC and PlangateGC are the two commands as a plain `go build`
// makes them.
var (
	RiverGC    = Spec{Package: "./cmd/river-gc"}
	PlangateGC = Spec{Package: "./cmd/plangate-gc"}
)

// Release is river-gc for linux/goarch as a release archive carries it,
// with the linker flags ldflags (a version stamped in, symbols
// stripped). Under PLANGATE_GC_LONG, or for another architecture than
// the host's, it is built as the release builds it (-trimpath, no cgo).
// Otherwise it is the plain build with ldflags: the linker flags alone
// make it a link of the packages go test compiled anyway, where the
// release's configuration compiles every package a second time (about
// 130 s of CPU from an empty build cache). Nothing a test of the quick
// suite asks of the binary depends on the configuration: it runs on the
// host, with the version stamped in.
func Release(goarch, ldflags string) Spec {
	s := Spec{Package: "./cmd/river-gc", Flags: []string{"-ldflags=" + ldflags}}
	if longtest.Enabled() || goarch != runtime.GOARCH {
		s.Flags = []string{"-trimpath", "-ldflags=" + ldflags}
		s.Env = []string{"GOOS=linux", "GOARCH=" + goarch, "CGO_ENABLED=0"}
	}
	return s
}

type result struct {
	path string
	err  error
}

var (
	mu    sync.Mutex
	built = map[string]result{}
	held  []*os.File // shared locks on the entries in use, until exit
)

// Build returns the path of the binary s describes, built or found in the
// cache. The binary is shared: run it, do not change it. It skips t
// without the go command and fails it when the build fails; the same
// spec asked again in the process answers at once. Build also reads every
// file of the module (internal/modfiles), so that go test reruns a test
// that runs the binary whenever the module changes.
func Build(t testing.TB, s Spec) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found: put Go on PATH to build " + s.name())
	}
	if err := modfiles.Record(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	id := strings.Join(append(append([]string{s.Package, s.ModFile}, s.Flags...), s.Env...), "\x00")
	r, ok := built[id]
	if !ok {
		r.path, r.err = build(s)
		built[id] = r
	}
	if r.err != nil {
		t.Fatalf("building %s: %v", s.name(), r.err)
	}
	return r.path
}

func (s Spec) name() string { return filepath.Base(s.Package) }

// flags are the go command's flags for s: its ModFile, then its Flags.
func (s Spec) flags() []string {
	if s.ModFile == "" {
		return s.Flags
	}
	return append([]string{"-modfile=" + s.ModFile}, s.Flags...)
}

// lock is the name of the lock file that serializes the builds s shares
// compiled packages with.
func (s Spec) lock() string {
	if s.ModFile == "" {
		return "build.lock"
	}
	return "build-" + s.name() + ".lock"
}

// Copy copies the binary bin to dst, executable by everyone: for a test
// that lays it out where a release or a user would have it, or runs it as
// another user (the cache is under the invoking user's home).
func Copy(bin, dst string) error {
	b, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}

// build finds or makes the entry of s and holds it.
func build(s Spec) (string, error) {
	root, err := goOutput(nil, "", "env", "GOMOD")
	if err != nil {
		return "", err
	}
	root = filepath.Dir(root)
	variant, content, err := key(root, s)
	if err != nil {
		return "", err
	}
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, s.name()+"-"+variant+"-"+content)
	bin := filepath.Join(dir, s.name())
	for range 10 {
		lock, err := openHeld(dir)
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(bin); err == nil {
			now := time.Now()
			os.Chtimes(dir, now, now) // the last use, which pruning reads
			held = append(held, lock)
			return bin, nil
		}
		lock.Close()
		if err := locked(filepath.Join(cache, s.lock()), func() error {
			if err := goBuild(root, s, bin); err != nil {
				return err
			}
			prune(cache, dir)
			return nil
		}); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("cache entry %s keeps vanishing", dir)
}

// openHeld opens the entry's lock file, creating the entry, and takes a
// shared lock on it, retrying when pruning removed the entry meanwhile.
func openHeld(dir string) (*os.File, error) {
	for {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		name := filepath.Join(dir, "lock")
		f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
			f.Close()
			return nil, err
		}
		if same(f, name) {
			return f, nil
		}
		f.Close()
	}
}

// same reports whether f is still the file at name.
func same(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(name)
	return err == nil && os.SameFile(a, b)
}

// locked runs fn holding an exclusive lock on the file name.
func locked(name string, fn func() error) error {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	return fn()
}

// goBuild builds s into bin unless another process already did.
func goBuild(root string, s Spec, bin string) error {
	if _, err := os.Stat(bin); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return err
	}
	tmp := bin + ".tmp"
	args := append(append([]string{"build", "-buildvcs=false"}, s.flags()...), "-o", tmp, s.Package)
	if _, err := goOutput(s.Env, root, args...); err != nil {
		return err
	}
	return os.Rename(tmp, bin)
}

// goOutput runs the go command in dir with env added and returns its
// trimmed standard output.
func goOutput(env []string, dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, tail(stderr.Bytes(), 4000))
	}
	return strings.TrimSpace(stdout.String()), nil
}

func cacheDir() (string, error) {
	if dir := os.Getenv(EnvCache); dir != "" {
		return dir, os.MkdirAll(dir, 0o755)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "plangate-gc", "bin")
	return dir, os.MkdirAll(dir, 0o755)
}

// goEnv lists what of the go command's environment decides a build's
// bytes besides the sources and flags.
var goEnv = []string{"GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "GOEXPERIMENT", "CGO_ENABLED", "CC", "GOFLAGS"}

// key returns the two halves of an entry's name: the variant (toolchain,
// target, flags, environment) and the content (the sources of every
// package the binary is built from).
func key(root string, s Spec) (variant, content string, err error) {
	env, err := goOutput(s.Env, root, append([]string{"env"}, goEnv...)...)
	if err != nil {
		return "", "", err
	}
	v := sha256.New()
	fmt.Fprintf(v, "%s\x00%q\x00%q\x00%s", s.Package, s.flags(), s.Env, env)
	args := append(append([]string{"list", "-deps", "-json=ImportPath,Dir,Standard,Module,GoFiles,CgoFiles,CFiles,CXXFiles,HFiles,SFiles,SysoFiles,EmbedFiles"}, s.flags()...), s.Package)
	out, err := goOutput(s.Env, root, args...)
	if err != nil {
		return "", "", err
	}
	c := sha256.New()
	if err := hashPackages(c, strings.NewReader(out)); err != nil {
		return "", "", err
	}
	return hex.EncodeToString(v.Sum(nil))[:12], hex.EncodeToString(c.Sum(nil))[:16], nil
}

type listed struct {
	ImportPath, Dir string
	Standard        bool
	Module          *struct {
		Path, Version string
		Main          bool
		Replace       *struct{ Path, Version string }
	}
	GoFiles, CgoFiles, CFiles, CXXFiles, HFiles, SFiles, SysoFiles, EmbedFiles []string
}

// hashPackages writes to h what identifies each package of go list's
// output: nothing for the standard library (the toolchain is in the
// variant), the version of a module from the module cache, and the name
// and bytes of every file of any other (this module's, or a local
// replacement's).
func hashPackages(h io.Writer, list io.Reader) error {
	dec := json.NewDecoder(list)
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if p.Standard {
			continue
		}
		if m := p.Module; m != nil && !m.Main && (m.Replace == nil || m.Replace.Version != "") {
			fmt.Fprintf(h, "pkg %s %s@%s", p.ImportPath, m.Path, m.Version)
			if m.Replace != nil {
				fmt.Fprintf(h, " => %s@%s", m.Replace.Path, m.Replace.Version)
			}
			fmt.Fprintln(h)
			continue
		}
		fmt.Fprintf(h, "pkg %s\n", p.ImportPath)
		var files []string
		for _, l := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.CXXFiles, p.HFiles, p.SFiles, p.SysoFiles, p.EmbedFiles} {
			files = append(files, l...)
		}
		sort.Strings(files)
		for _, name := range files {
			b, err := os.ReadFile(filepath.Join(p.Dir, name))
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "file %s %d\n", name, len(b))
			h.Write(b)
		}
	}
}

// Pruning keeps, of each variant, the keep most recently used entries,
// and no entry unused for longer than maxAge.
const (
	keep   = 4
	maxAge = 7 * 24 * time.Hour
)

// prune removes the entries nobody holds that are too many or too old,
// never current (the entry just built).
func prune(cache, current string) {
	entries, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	type entry struct {
		path string
		used time.Time
	}
	variants := map[string][]entry{}
	for _, e := range entries {
		i := strings.LastIndexByte(e.Name(), '-')
		info, err := e.Info()
		if !e.IsDir() || i < 0 || err != nil {
			continue
		}
		v := e.Name()[:i]
		variants[v] = append(variants[v], entry{filepath.Join(cache, e.Name()), info.ModTime()})
	}
	for _, es := range variants {
		sort.Slice(es, func(i, j int) bool { return es[i].used.After(es[j].used) })
		for i, e := range es {
			if e.path != current && (i >= keep || time.Since(e.used) > maxAge) {
				removeUnheld(e.path)
			}
		}
	}
}

// removeUnheld removes the entry dir unless a process holds it.
func removeUnheld(dir string) {
	f, err := os.Open(filepath.Join(dir, "lock"))
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return
	}
	os.RemoveAll(dir)
}

// tail returns at most the last n bytes of b.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// NoRaceExitSleep sets GORACE, for the processes a test starts, so that a
// race-instrumented binary exits at once instead of sleeping a second
// (the race runtime's default atexit_sleep_ms=1000): a test binary that
// testscript re-executes as a command, hundreds of times, would spend
// minutes asleep. A GORACE that already sets atexit_sleep_ms is left
// alone. Call it first in TestMain.
func NoRaceExitSleep() {
	v := os.Getenv("GORACE")
	if strings.Contains(v, "atexit_sleep_ms") {
		return
	}
	os.Setenv("GORACE", strings.TrimSpace(v+" atexit_sleep_ms=0"))
}
