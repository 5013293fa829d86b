package release

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/pinned"
)

// config is the part of .goreleaser.yaml these tests read.
type config struct {
	Builds []struct {
		ID      string   `yaml:"id"`
		LDFlags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		ID              string `yaml:"id"`
		NameTemplate    string `yaml:"name_template"`
		WrapInDirectory any    `yaml:"wrap_in_directory"`
		Files           []struct {
			Src string `yaml:"src"`
			Dst string `yaml:"dst"`
		} `yaml:"files"`
	} `yaml:"archives"`
}

// versionFlag is the one version every build stamps: the archive's.
const versionFlag = `-X "github.com/plangate-gc/plangate-gc/internal/version.Version=v{{ .Version }}"`

// TestConfigGivesOneVersionAndATopDirectory: every archive of
// .goreleaser.yaml unpacks into a directory of its own (named like the
// archive) holding LICENSE and README.md, and every build stamps the
// archive's version, so `--version` and the archive's name agree. The
// snapshot build itself is TestSnapshotArchives.
func TestConfigGivesOneVersionAndATopDirectory(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(pinned.Root(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c config
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Builds) != 2 || len(c.Archives) != 2 {
		t.Fatalf("%d builds, %d archives, want 2 and 2", len(c.Builds), len(c.Archives))
	}
	for _, build := range c.Builds {
		if len(build.LDFlags) != 1 || !strings.Contains(build.LDFlags[0], versionFlag) {
			t.Errorf("build %s: ldflags %q do not stamp %s", build.ID, build.LDFlags, versionFlag)
		}
	}
	for _, a := range c.Archives {
		if a.WrapInDirectory != true {
			t.Errorf("archive %s: wrap_in_directory is %v, want true", a.ID, a.WrapInDirectory)
		}
		if a.NameTemplate != a.ID+"_{{ .Version }}_{{ .Os }}_{{ .Arch }}" {
			t.Errorf("archive %s: name_template %q", a.ID, a.NameTemplate)
		}
		var top []string
		for _, f := range a.Files {
			if f.Dst == "" {
				top = append(top, f.Src)
			}
		}
		for _, want := range []string{"LICENSE", "README.md"} {
			if !slices.Contains(top, want) {
				t.Errorf("archive %s does not carry %s in its top directory (files %v)", a.ID, want, top)
			}
		}
	}
}

// TestSnapshotArchives builds the snapshot release from a clone of HEAD
// with the pinned GoReleaser and reads every archive: all its entries are
// under one directory named like the archive, LICENSE and README.md are
// there, SHA256SUMS lists it, and this host's river-gc reports the
// archive's version.
func TestSnapshotArchives(t *testing.T) {
	longtest.Require(t, "the snapshot release build (GoReleaser, every platform)")
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found: the snapshot is built from a clone")
	}
	root := pinned.Root(t)
	src := filepath.Join(t.TempDir(), "src")
	if out, err := exec.Command("git", "clone", "--quiet", root, src).CombinedOutput(); err != nil {
		t.Skipf("git clone of the checkout: %v\n%s", err, out)
	}
	cmd := pinned.Command(t, src, "goreleaser", "release", "--snapshot", "--clean", "--skip=publish")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser: %v\n%s", err, out)
	}
	dist := filepath.Join(src, "dist")
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	archives, _ := filepath.Glob(filepath.Join(dist, "*.tar.gz"))
	if len(archives) < 6 {
		t.Fatalf("%d .tar.gz archives in dist/", len(archives))
	}
	for _, archive := range archives {
		name := filepath.Base(archive)
		stem := strings.TrimSuffix(name, ".tar.gz")
		if !strings.Contains(string(sums), "  "+name+"\n") {
			t.Errorf("SHA256SUMS does not list %s", name)
		}
		files := entries(t, archive)
		for _, f := range files {
			if !strings.HasPrefix(f, stem+"/") {
				t.Errorf("%s: %s is not under %s/", name, f, stem)
			}
		}
		for _, want := range []string{"LICENSE", "README.md"} {
			if !slices.Contains(files, stem+"/"+want) {
				t.Errorf("%s holds no %s/%s (%v)", name, stem, want, files)
			}
		}
		rest, ok := strings.CutPrefix(stem, "river-gc_")
		if !ok || runtime.GOOS != "linux" || !strings.HasSuffix(stem, "_linux_"+runtime.GOARCH) {
			continue
		}
		version := strings.TrimSuffix(rest, "_linux_"+runtime.GOARCH)
		x := t.TempDir()
		if out, err := exec.Command("tar", "-xzf", archive, "-C", x).CombinedOutput(); err != nil {
			t.Fatalf("tar: %v\n%s", err, out)
		}
		out, err := exec.Command(filepath.Join(x, stem, "river-gc"), "--version").Output()
		if err != nil || string(out) != "river-gc v"+version+"\n" {
			t.Errorf("%s: river-gc --version = %q (%v), want the archive's v%s", name, out, err, version)
		}
	}
}

// entries lists the names in a .tar.gz.
func entries(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeDir {
			names = append(names, strings.TrimSuffix(h.Name, "/"))
		}
	}
}
