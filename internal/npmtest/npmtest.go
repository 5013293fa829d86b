// Package npmtest gives tests a local release of river-gc made the way the
// release makes it — `river-gc_<version>_linux_<arch>.tar.gz` archives
// for amd64 and arm64 and a SHA256SUMS file — and the npm packages that
// integrations/npm/build.sh builds from it, installed offline into a
// project directory like a user's. Tests skip, saying so, without go,
// node, npm, tar or sha256sum, or on a host that is not Linux amd64/arm64.
// Each archive holds its files in a top directory named like it, as
// .goreleaser.yaml's do. Outside the long suites (internal/longtest) the
// other architecture's archive carries the host's binary instead of a
// cross-compiled one: the tests only check that it is what build.sh
// packed, and a cold cross-compilation of the standard library costs
// minutes; and the host's binary is the plain build with the release's
// linker flags, not the release's configuration (testbin.Release).
package npmtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/testbin"
)

// Version is the version of the test release (the tag is "v" + Version).
const Version = "0.0.0-test.1"

// Release is a built test release.
type Release struct {
	// Root is the module's root directory.
	Root string
	// Dist holds the archives and SHA256SUMS, as GoReleaser's dist/ does.
	Dist string
	// Packages holds the three .tgz files build.sh made from Dist.
	Packages string
	// Binary is the host's river-gc, byte for byte the one in its archive.
	Binary string
}

// Shim returns the packed shim package.
func (r *Release) Shim() string {
	return filepath.Join(r.Packages, "plangate-gc-river-gc-"+Version+".tgz")
}

// Platform returns the packed platform package for an npm cpu (x64, arm64).
func (r *Release) Platform(cpu string) string {
	return filepath.Join(r.Packages, "plangate-gc-river-gc-linux-"+cpu+"-"+Version+".tgz")
}

var (
	once    sync.Once
	built   *Release
	tmpRoot string
	failMsg string
)

// Build returns the test release, made once per process from river-gc
// built once for all (internal/testbin). Call Cleanup from TestMain to
// remove it.
func Build(t testing.TB) *Release {
	t.Helper()
	if msg := unsupported(); msg != "" {
		t.Skip(msg)
	}
	host := testbin.Build(t, ReleaseSpec(runtime.GOARCH))
	bins := map[string]string{runtime.GOARCH: host, other(runtime.GOARCH): host}
	if longtest.Enabled() {
		bins[other(runtime.GOARCH)] = testbin.Build(t, ReleaseSpec(other(runtime.GOARCH)))
	}
	once.Do(func() { built, failMsg = build(bins) })
	if failMsg != "" {
		t.Fatal(failMsg)
	}
	return built
}

// Cleanup removes what Build made.
func Cleanup() {
	if tmpRoot != "" {
		os.RemoveAll(tmpRoot)
	}
}

// HostCPU is the npm cpu name of this machine, or "" when river-gc has no
// package for it.
func HostCPU() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "arm64":
		return "arm64"
	}
	return ""
}

// unsupported says why this host cannot run the npm package tests, or "".
func unsupported() string {
	for _, tool := range []string{"go", "node", "npm", "tar", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			return tool + " not found: the npm package tests are skipped (they need go, node, npm, tar and sha256sum on PATH)"
		}
	}
	if HostCPU() == "" {
		return "river-gc's npm packages are for Linux x64 and arm64 only; this is " + runtime.GOOS + "/" + runtime.GOARCH
	}
	return ""
}

// build lays out the release from the built binaries, by GOARCH.
func build(bins map[string]string) (rel *Release, fail string) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return nil, fmt.Sprintf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	tmpRoot, err = os.MkdirTemp("", "npmtest-")
	if err != nil {
		return nil, err.Error()
	}
	rel = &Release{Root: root, Dist: filepath.Join(tmpRoot, "dist"), Packages: filepath.Join(tmpRoot, "npm")}
	if err := os.MkdirAll(rel.Dist, 0o755); err != nil {
		return nil, err.Error()
	}
	// SHA256SUMS lists the archives by name, as GoReleaser's does.
	sums := map[string]string{}
	for _, goarch := range []string{runtime.GOARCH, other(runtime.GOARCH)} {
		name := "river-gc_" + Version + "_linux_" + goarch + ".tar.gz"
		dir := filepath.Join(tmpRoot, "build", goarch)
		top := strings.TrimSuffix(name, ".tar.gz")
		bin := filepath.Join(dir, top, "river-gc")
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			return nil, err.Error()
		}
		if err := testbin.Copy(bins[goarch], bin); err != nil {
			return nil, err.Error()
		}
		if goarch == runtime.GOARCH {
			rel.Binary = bin
		}
		archive := filepath.Join(rel.Dist, name)
		if out, err := exec.Command("tar", "-czf", archive, "-C", dir, top+"/river-gc").CombinedOutput(); err != nil {
			return nil, fmt.Sprintf("tar %s: %v\n%s", name, err, out)
		}
		sum, err := FileSHA256(archive)
		if err != nil {
			return nil, err.Error()
		}
		sums[goarch] = fmt.Sprintf("%s  %s\n", sum, name)
	}
	if err := os.WriteFile(filepath.Join(rel.Dist, "SHA256SUMS"), []byte(sums["amd64"]+sums["arm64"]), 0o644); err != nil {
		return nil, err.Error()
	}
	if out, err := BuildPackages(rel.Root, rel.Dist, rel.Packages, nil); err != nil {
		return nil, fmt.Sprintf("build.sh: %v\n%s", err, out)
	}
	return rel, ""
}

// other is the architecture of the release's other Linux archive.
func other(goarch string) string {
	if goarch == "amd64" {
		return "arm64"
	}
	return "amd64"
}

// ReleaseSpec is river-gc for linux/goarch as the release archives carry
// it, with the test release's version (internal/testbin.Release).
func ReleaseSpec(goarch string) testbin.Spec {
	return testbin.Release(goarch, "-s -w -buildid= -X github.com/plangate-gc/plangate-gc/internal/version.Version=v"+Version)
}

// BuildPackages runs integrations/npm/build.sh dist out with extra
// environment variables and returns its combined output.
func BuildPackages(root, dist, out string, env []string) ([]byte, error) {
	cmd := exec.Command("sh", filepath.Join(root, "integrations", "npm", "build.sh"), dist, out)
	cmd.Env = append(os.Environ(), env...)
	return cmd.CombinedOutput()
}

// FileSHA256 returns the hex sha256 of a file.
func FileSHA256(file string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// Install makes dir an npm project depending on the packed shim, with the
// platform packages mapped to their packed files (npm overrides), and runs
// `npm install --offline` there with a private cache: no registry is
// asked. npm itself skips the package whose os/cpu do not match.
func Install(t testing.TB, rel *Release, dir string) {
	t.Helper()
	manifest := fmt.Sprintf(`{
  "name": "river-gc-user",
  "private": true,
  "devDependencies": { "@plangate-gc/river-gc": "file:%s" },
  "overrides": {
    "@plangate-gc/river-gc-linux-x64": "file:%s",
    "@plangate-gc/river-gc-linux-arm64": "file:%s"
  }
}
`, rel.Shim(), rel.Platform("x64"), rel.Platform("arm64"))
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("npm", "install", "--offline", "--no-audit", "--no-fund", "--loglevel=error",
		"--cache", filepath.Join(t.TempDir(), "npm-cache"))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install --offline: %v\n%s", err, out)
	}
}

// Env returns a minimal environment plus extra: PATH holds only the
// directory of node (its path), so no river-gc on PATH is found; npm is
// offline, with a private cache and no update check.
func Env(t testing.TB, node string, extra ...string) []string {
	return append([]string{"PATH=" + filepath.Dir(node), "HOME=" + t.TempDir(), "NO_COLOR=1", "LANG=C",
		"npm_config_update_notifier=false", "npm_config_offline=true", "npm_config_cache=" + filepath.Join(t.TempDir(), "npm-cache")}, extra...)
}

// Run runs name with args in dir with Env(extra) and returns stdout,
// stderr and the exit code.
func Run(t testing.TB, dir string, env []string, name string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: put Node 20 or 22 on PATH to run it")
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = Env(t, node, env...)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s %v: %v", name, args, err)
		}
	}
	return []byte(o.String()), []byte(e.String()), cmd.ProcessState.ExitCode()
}

// durationMs matches the one field of river gc's record that varies
// between identical runs (SPEC B5), compact or indented.
var durationMs = regexp.MustCompile(`"durationMs": ?[0-9]+`)

// Stable returns out with what legitimately differs between two runs of
// the same command replaced: the run's duration, and each of roots (the
// twin trees a comparison ran on) by "$ROOT".
func Stable(out []byte, roots ...string) []byte {
	out = durationMs.ReplaceAll(out, []byte(`"durationMs": 0`))
	for _, r := range roots {
		out = bytes.ReplaceAll(out, []byte(r), []byte("$ROOT"))
	}
	return out
}
