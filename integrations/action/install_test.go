package action

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/testbin"
)

const tag = "v0.0.1"

// release builds a local release of tag: river-gc built for this machine
// (with the release's -X version) in the archives a release has, and
// their SHA256SUMS, laid out as <root>/<tag>/<file>. It returns root.
func release(t *testing.T) string {
	t.Helper()
	exe, err := os.ReadFile(releaseBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, tag)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var sums strings.Builder
	for _, arch := range []string{"amd64", "arm64"} {
		name := fmt.Sprintf("river-gc_%s_linux_%s.tar.gz", strings.TrimPrefix(tag, "v"), arch)
		data := tarGz(t, strings.TrimSuffix(name, ".tar.gz"), map[string][]byte{"README.md": []byte("readme\n"), "river-gc": exe})
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// releaseBinary is river-gc as a release archive carries it, with tag's
// version, once for every test (internal/testbin.Release).
func releaseBinary(t *testing.T) string {
	t.Helper()
	return testbin.Build(t, testbin.Release(runtime.GOARCH, "-X github.com/plangate-gc/plangate-gc/internal/version.Version="+tag))
}

// tarGz makes a release archive: the files in a top directory top/, as
// .goreleaser.yaml lays them out.
func tarGz(t *testing.T, top string, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range []string{"README.md", "river-gc"} {
		mode := int64(0o644)
		if name == "river-gc" {
			mode = 0o755
		}
		hdr := &tar.Header{Name: top + "/" + name, Mode: mode, Size: int64(len(files[name])), ModTime: time.Unix(0, 0)}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(files[name]); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// runner is one simulated Actions step environment.
type runner struct {
	temp, path, output, summary string
}

func newRunner(t *testing.T) runner {
	dir := t.TempDir()
	r := runner{temp: filepath.Join(dir, "temp"), path: filepath.Join(dir, "path"),
		output: filepath.Join(dir, "output"), summary: filepath.Join(dir, "summary.md")}
	if err := os.Mkdir(r.temp, 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

// script runs one of the action's scripts with the runner's variables
// and extra, returning its exit code and combined output.
func (r runner) script(t *testing.T, dir, name string, extra ...string) (int, string) {
	t.Helper()
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(here, name))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP="+r.temp,
		"GITHUB_PATH="+r.path, "GITHUB_OUTPUT="+r.output, "GITHUB_STEP_SUMMARY="+r.summary)
	cmd.Env = append(cmd.Env, extra...)
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), string(out)
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return 0, string(out)
}

func serve(t *testing.T, root string) string {
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestInstallVerifiesAndRuns installs the local release over loopback
// HTTP, runs the installed river-gc through run.sh as the action does
// and checks the deletion, the JSON result, the step summary and the
// step outputs.
func TestInstallVerifiesAndRuns(t *testing.T) {
	t.Parallel()
	root := release(t)
	url := serve(t, root)
	r := newRunner(t)
	code, out := r.script(t, t.TempDir(), "install.sh", "RIVER_GC_VERSION="+tag, "RIVER_GC_BASE_URL="+url)
	if code != 0 {
		t.Fatalf("install.sh exit %d:\n%s", code, out)
	}
	dest := filepath.Join(r.temp, "river-gc-"+tag)
	if got := readFile(t, r.path); got != dest+"\n" {
		t.Errorf("GITHUB_PATH = %q, want %q", got, dest+"\n")
	}
	bin := filepath.Join(dest, "river-gc")
	if got := readFile(t, r.output); got != "path="+bin+"\n" {
		t.Errorf("GITHUB_OUTPUT = %q", got)
	}
	version, err := exec.Command(bin, "--version").Output()
	if err != nil || string(version) != "river-gc "+tag+"\n" {
		t.Fatalf("installed river-gc --version = %q, %v", version, err)
	}

	// run.sh: a repository with one old memory file and one protected.
	repo := t.TempDir()
	old := filepath.Join(repo, ".river", "memory", "old.json")
	keep := filepath.Join(repo, ".river", "memory", "keep", "k.json")
	for _, p := range []string{old, keep} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, time.Unix(1735689600, 0), time.Unix(1735689600, 0)); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(r.output)
	result := filepath.Join(r.temp, "gc-result.json")
	code, out = r.script(t, repo, "run.sh", "RIVER_GC_ACTION_BIN="+bin, "INPUT_FORCE=true", "INPUT_SCOPES=memory tmp",
		"INPUT_EXCLUDES=.river/memory/keep/**\n", "INPUT_NOW=2025-11-29T00:00:00Z", "INPUT_RETENTION_DAYS=30", "INPUT_SUMMARY=true")
	if code != 0 {
		t.Fatalf("run.sh exit %d:\n%s", code, out)
	}
	if _, err := os.Lstat(old); !os.IsNotExist(err) {
		t.Errorf("old.json still there (%v)", err)
	}
	if _, err := os.Lstat(keep); err != nil {
		t.Errorf("excluded file gone: %v", err)
	}
	var res struct {
		Mode    string   `json:"mode"`
		Scopes  []string `json:"scopes"`
		Removed []struct {
			Path string `json:"path"`
		} `json:"removed"`
	}
	if err := json.Unmarshal([]byte(readFile(t, result)), &res); err != nil {
		t.Fatal(err)
	}
	if res.Mode != "force" || strings.Join(res.Scopes, " ") != "memory tmp" || len(res.Removed) != 1 || res.Removed[0].Path != ".river/memory/old.json" {
		t.Errorf("result = %+v", res)
	}
	if got := readFile(t, r.output); got != "result-file="+result+"\nexit-code=0\n" {
		t.Errorf("GITHUB_OUTPUT = %q", got)
	}
	if s := readFile(t, r.summary); !strings.Contains(s, "old.json") {
		t.Errorf("step summary lacks the removal:\n%s", s)
	}

	// A config error: run.sh ends with river-gc's exit code 2 and still
	// names the result file.
	os.Remove(r.output)
	code, out = r.script(t, repo, "run.sh", "RIVER_GC_ACTION_BIN="+bin, "INPUT_SCOPES=nope")
	if code != 2 || !strings.Contains(readFile(t, r.output), "exit-code=2\n") {
		t.Errorf("unknown scope: exit %d, outputs %q:\n%s", code, readFile(t, r.output), out)
	}
}

// TestInstallRefusesABadChecksum: a SHA256SUMS whose line for the archive
// does not match, or has no line for it, fails the step and installs
// nothing; so does a runner river-gc has no release for.
func TestInstallRefusesABadChecksum(t *testing.T) {
	t.Parallel()
	root := release(t)
	url := serve(t, root)
	sums := filepath.Join(root, tag, "SHA256SUMS")
	good := readFile(t, sums)
	for _, tc := range []struct {
		name, sums, want string
		env              []string
	}{
		{"mismatch", strings.Replace(good, good[:8], "00000000", 1), "checksum mismatch", nil},
		{"no line", good[strings.Index(good, "\n")+1:], "no line for river-gc_0.0.1_linux_amd64.tar.gz", nil},
		{"macOS", good, "runs on Linux only", []string{"RUNNER_OS=macOS"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(sums, []byte(tc.sums), 0o644); err != nil {
				t.Fatal(err)
			}
			r := newRunner(t)
			env := append([]string{"RIVER_GC_VERSION=" + tag, "RIVER_GC_BASE_URL=" + url}, tc.env...)
			code, out := r.script(t, t.TempDir(), "install.sh", env...)
			if code == 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want failure with %q:\n%s", code, tc.want, out)
			}
			if _, err := os.Lstat(filepath.Join(r.temp, "river-gc-"+tag, "river-gc")); !os.IsNotExist(err) {
				t.Errorf("river-gc installed anyway (%v)", err)
			}
			if _, err := os.Lstat(r.path); !os.IsNotExist(err) {
				t.Errorf("GITHUB_PATH written (%v)", err)
			}
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
