package s3test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// Environment variables the engine harness reads.
const (
	// EnvWeed names a prebuilt weed binary to use instead of building
	// one; it also enables the engine tests without PLANGATE_GC_LONG=1
	// (a developer's shortcut: build once, run the tests often).
	EnvWeed = "PLANGATE_GC_WEED"
	// EnvCache overrides the directory where the built weed binary is
	// kept (default: os.UserCacheDir()/plangate-gc/weed).
	EnvCache = "PLANGATE_GC_WEED_CACHE"
)

// toolsModule is the tools module that pins SeaweedFS, relative to the
// repository's root.
const toolsModule = "internal/tools/seaweedfs"

// weedPackage is the main package of SeaweedFS's server binary.
const weedPackage = "github.com/seaweedfs/seaweedfs/weed"

// FindRepo returns the repository's root: the first directory, from the
// working directory up, that holds the SeaweedFS tools module. Tests run
// in their package's directory, commands (bench/s3) from the checkout.
func FindRepo() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, toolsModule, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no %s/go.mod above the working directory", toolsModule)
		}
		dir = parent
	}
}

// BuildWeed returns the path of a weed binary built from the SeaweedFS
// version pinned in internal/tools/seaweedfs/go.mod. It is built once
// into a cache directory outside the tree, keyed by the tools module's
// go.mod and go.sum and by the Go toolchain, so a new pin or a new Go
// builds anew and every other call (any process) reuses it; a lock file
// keeps concurrent test processes from building it twice. The build runs
// inside the tools module, whose go.mod mirrors SeaweedFS's replace
// directive (`go install weed@v` refuses the module for it).
func BuildWeed(repo string) (string, error) {
	mod := filepath.Join(repo, toolsModule)
	key, err := weedKey(mod)
	if err != nil {
		return "", err
	}
	cache := os.Getenv(EnvCache)
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		cache = filepath.Join(base, "plangate-gc", "weed")
	}
	dir := filepath.Join(cache, key)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("weed cache %s: %w", dir, err)
	}
	bin := filepath.Join(dir, "weed")
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("weed cache lock: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("weed cache lock: %w", err)
	}
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	tmp := bin + ".tmp"
	cmd := exec.Command("go", "build", "-trimpath", "-o", tmp, weedPackage)
	cmd.Dir = mod
	// The tools module is its own module: neither a workspace nor the
	// caller's -modfile or -mod flags may leak into its build.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-buildvcs=false")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building weed in %s: %w\n%s", mod, err, tail(out.Bytes(), 4000))
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	return bin, nil
}

// weedKey names a build: the pinned SeaweedFS version (readable in the
// cache's listing) and a hash of the tools module's files and the
// toolchain that builds them.
func weedKey(mod string) (string, error) {
	h := sha256.New()
	version := ""
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(mod, name))
		if err != nil {
			return "", fmt.Errorf("reading the SeaweedFS pin: %w", err)
		}
		if name == "go.mod" {
			version = pinnedVersion(b)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	goVersion, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	fmt.Fprintf(h, "%s\x00%s/%s", bytes.TrimSpace(goVersion), runtime.GOOS, runtime.GOARCH)
	if version == "" {
		return "", errors.New("internal/tools/seaweedfs/go.mod requires no github.com/seaweedfs/seaweedfs")
	}
	return version + "-" + hex.EncodeToString(h.Sum(nil))[:12], nil
}

// pinnedVersion returns the version of github.com/seaweedfs/seaweedfs
// that a go.mod requires, or "".
func pinnedVersion(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == "github.com/seaweedfs/seaweedfs" {
			return f[1]
		}
	}
	return ""
}

// tail returns at most the last n bytes of b.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
