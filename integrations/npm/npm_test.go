package npm

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/npmtest"
)

const v = npmtest.Version

// tgzFiles returns the regular files of a .tgz (npm pack's or a release
// archive) by name, with their modes.
func tgzFiles(t *testing.T, file string) (map[string][]byte, map[string]int64) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	tr := tar.NewReader(zr)
	data, modes := map[string][]byte{}, map[string]int64{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return data, modes
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		data[h.Name], modes[h.Name] = b, h.Mode
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func unmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v in\n%s", err, b)
	}
}

// TestPackagesCarryTheReleaseBinaries checks the three packages against
// the release they were built from: each platform package holds exactly
// the binary of its archive (listed in SHA256SUMS), with os/cpu set, and
// the shim records both binaries' sha256 and depends on both packages.
func TestPackagesCarryTheReleaseBinaries(t *testing.T) {
	t.Parallel()
	rel := npmtest.Build(t)
	sums, err := os.ReadFile(filepath.Join(rel.Dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	shim, shimModes := tgzFiles(t, rel.Shim())
	var shimManifest struct {
		Name, Version, Main  string
		Bin                  map[string]string
		OptionalDependencies map[string]string
	}
	unmarshal(t, shim["package/package.json"], &shimManifest)
	if shimManifest.Name != "@plangate-gc/river-gc" || shimManifest.Version != v || shimManifest.Main != "lib/index.js" ||
		!reflect.DeepEqual(shimManifest.Bin, map[string]string{"river-gc": "bin/river-gc.js"}) ||
		!reflect.DeepEqual(shimManifest.OptionalDependencies, map[string]string{
			"@plangate-gc/river-gc-linux-x64": v, "@plangate-gc/river-gc-linux-arm64": v}) {
		t.Errorf("shim package.json: %+v", shimManifest)
	}
	if shimModes["package/bin/river-gc.js"]&0o111 == 0 {
		t.Error("bin/river-gc.js is not executable in the shim package")
	}
	var table struct {
		Version  string
		Binaries map[string]struct{ Package, Archive, ArchiveSha256, Sha256 string }
	}
	unmarshal(t, shim["package/lib/checksums.json"], &table)
	if table.Version != v || len(table.Binaries) != 2 {
		t.Fatalf("checksums.json: %+v", table)
	}
	for goarch, cpu := range map[string]string{"amd64": "x64", "arm64": "arm64"} {
		archive := "river-gc_" + v + "_linux_" + goarch + ".tar.gz"
		inArchive, _ := tgzFiles(t, filepath.Join(rel.Dist, archive))
		binSum := sha(inArchive[strings.TrimSuffix(archive, ".tar.gz")+"/river-gc"])
		archiveBytes, err := os.ReadFile(filepath.Join(rel.Dist, archive))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(sums, []byte(sha(archiveBytes)+"  "+archive+"\n")) {
			t.Fatalf("test release: SHA256SUMS does not list %s", archive)
		}
		pkg, modes := tgzFiles(t, rel.Platform(cpu))
		if !bytes.Equal(pkg["package/bin/river-gc"], inArchive[strings.TrimSuffix(archive, ".tar.gz")+"/river-gc"]) {
			t.Errorf("%s: bin/river-gc is not the binary of %s", cpu, archive)
		}
		if modes["package/bin/river-gc"]&0o111 == 0 {
			t.Errorf("%s: bin/river-gc is not executable", cpu)
		}
		var m struct {
			Name, Version string
			OS, CPU       []string
			RiverGc       struct{ Archive, ArchiveSha256, Sha256 string }
		}
		unmarshal(t, pkg["package/package.json"], &m)
		wantName := "@plangate-gc/river-gc-linux-" + cpu
		if m.Name != wantName || m.Version != v || !reflect.DeepEqual(m.OS, []string{"linux"}) || !reflect.DeepEqual(m.CPU, []string{cpu}) ||
			m.RiverGc.Archive != archive || m.RiverGc.ArchiveSha256 != sha(archiveBytes) || m.RiverGc.Sha256 != binSum {
			t.Errorf("%s package.json: %+v", cpu, m)
		}
		e := table.Binaries["linux-"+cpu]
		if e.Package != wantName || e.Archive != archive || e.ArchiveSha256 != sha(archiveBytes) || e.Sha256 != binSum {
			t.Errorf("checksums.json linux-%s: %+v", cpu, e)
		}
	}
}

// TestBuildIsReproducible: the same release gives the same tarballs.
func TestBuildIsReproducible(t *testing.T) {
	t.Parallel()
	longtest.Require(t, "a second build of the npm packages")
	rel := npmtest.Build(t)
	out := t.TempDir()
	if b, err := npmtest.BuildPackages(rel.Root, rel.Dist, out, nil); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	for _, f := range []string{rel.Shim(), rel.Platform("x64"), rel.Platform("arm64")} {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(out, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two builds (%v)", filepath.Base(f), err)
		}
	}
}

// TestBuildRefusesWhatSHA256SUMSDoesNotVouchFor: an archive whose sum
// differs, or that SHA256SUMS does not list, stops the build; nothing is
// packed.
func TestBuildRefusesWhatSHA256SUMSDoesNotVouchFor(t *testing.T) {
	t.Parallel()
	rel := npmtest.Build(t)
	sums, err := os.ReadFile(filepath.Join(rel.Dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(sums), "\n"), "\n")
	wrong := strings.Repeat("0", 64) + lines[0][64:]
	for name, tc := range map[string]struct{ sums, want string }{
		"mismatch": {wrong + lines[1], "has sha256"},
		"unlisted": {lines[1], "lists river-gc_" + v + "_linux_amd64.tar.gz 0 times"},
		"twice":    {string(sums) + lines[0], "2 times"},
	} {
		t.Run(name, func(t *testing.T) {
			dist := t.TempDir()
			for _, goarch := range []string{"amd64", "arm64"} {
				name := "river-gc_" + v + "_linux_" + goarch + ".tar.gz"
				b, _ := os.ReadFile(filepath.Join(rel.Dist, name))
				os.WriteFile(filepath.Join(dist, name), b, 0o644)
			}
			os.WriteFile(filepath.Join(dist, "SHA256SUMS"), []byte(tc.sums), 0o644)
			out := t.TempDir()
			b, err := npmtest.BuildPackages(rel.Root, dist, out, nil)
			if err == nil || !strings.Contains(string(b), tc.want) {
				t.Fatalf("build.sh: err %v, output %q, want failure with %q", err, b, tc.want)
			}
			if ents, _ := os.ReadDir(out); len(ents) != 0 {
				t.Errorf("build.sh packed %d files despite the failure", len(ents))
			}
		})
	}
}

// tree makes a root with one old memory file and the live index.
func tree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range []string{".river/memory/index.json", ".river/memory/old.json"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	return root
}

// installed returns a project with the packages installed offline.
func installed(t *testing.T) (*npmtest.Release, string) {
	rel := npmtest.Build(t)
	proj := t.TempDir()
	npmtest.Install(t, rel, proj)
	return rel, proj
}

// TestNpxRiverGcOffline: `npx river-gc` from the packed tarballs, with no
// registry, is the release binary: same --version, same JSON, same exit
// codes, and only the host's platform package is installed.
func TestNpxRiverGcOffline(t *testing.T) {
	t.Parallel()
	rel, proj := installed(t)
	other := map[string]string{"x64": "arm64", "arm64": "x64"}[npmtest.HostCPU()]
	if _, err := os.Stat(filepath.Join(proj, "node_modules/@plangate-gc/river-gc-linux-"+other)); !os.IsNotExist(err) {
		t.Errorf("the linux-%s package was installed on a %s host (%v)", other, npmtest.HostCPU(), err)
	}
	root := tree(t)
	for _, args := range [][]string{
		{"--version"},
		{"--help"},
		{"--root", root, "--json", "--now", "2026-01-01T00:00:00Z"},
		{"--root", root, "--scope", "bogus"},
		{"--root", filepath.Join(root, "missing")},
	} {
		o1, e1, c1 := npmtest.Run(t, proj, nil, "npx", append([]string{"--offline", "river-gc"}, args...)...)
		o2, e2, c2 := npmtest.Run(t, proj, nil, rel.Binary, args...)
		o1, o2 = npmtest.Stable(o1), npmtest.Stable(o2)
		if !bytes.Equal(o1, o2) || !bytes.Equal(e1, e2) || c1 != c2 {
			t.Errorf("river-gc %v: npx gives exit %d\n%s\n%s\nthe binary gives exit %d\n%s\n%s", args, c1, o1, e1, c2, o2, e2)
		}
	}
	o, _, _ := npmtest.Run(t, proj, nil, "npx", "--offline", "river-gc", "--version")
	if !strings.Contains(string(o), "v"+v) {
		t.Errorf("npx river-gc --version = %q, want the release's v%s", o, v)
	}
}

// TestShimRefusesAnUnverifiedBinary: a binary that is not the release's,
// or a missing platform package, is refused with exit 2 before anything
// runs: the old file is still there after --force.
func TestShimRefusesAnUnverifiedBinary(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		damage func(t *testing.T, pkgDir string)
		want   string
	}{
		"appended": {func(t *testing.T, pkgDir string) {
			f, err := os.OpenFile(filepath.Join(pkgDir, "bin/river-gc"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte{0})
			f.Close()
		}, "refusing to run it"},
		"replaced": {func(t *testing.T, pkgDir string) {
			os.WriteFile(filepath.Join(pkgDir, "bin/river-gc"), []byte("#!/bin/sh\nrm -rf \"$@\"\n"), 0o755)
		}, "refusing to run it"},
		"symlink": {func(t *testing.T, pkgDir string) {
			os.Rename(filepath.Join(pkgDir, "bin/river-gc"), filepath.Join(pkgDir, "bin/real"))
			os.Symlink("real", filepath.Join(pkgDir, "bin/river-gc"))
		}, "not a regular file"},
		"missing": {func(t *testing.T, pkgDir string) { os.RemoveAll(pkgDir) }, "is not installed"},
		// The release's own platform package, moved to a node_modules
		// above the project: npm never puts it there, so it is not run.
		"in an ancestor node_modules": {func(t *testing.T, pkgDir string) {
			proj := filepath.Dir(filepath.Dir(filepath.Dir(pkgDir)))
			dst := filepath.Join(filepath.Dir(proj), "node_modules", "@plangate-gc", filepath.Base(pkgDir))
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if err := os.Rename(pkgDir, dst); err != nil {
				t.Fatal(err)
			}
		}, "is not installed"},
		"other version": {func(t *testing.T, pkgDir string) {
			editManifest(t, pkgDir, func(m map[string]any) { m["version"] = "9.9.9" })
		}, "is 9.9.9, @plangate-gc/river-gc expects " + v},
		"other build": {func(t *testing.T, pkgDir string) {
			editManifest(t, pkgDir, func(m map[string]any) { m["riverGc"].(map[string]any)["sha256"] = strings.Repeat("0", 64) })
		}, "is not the build @plangate-gc/river-gc was made with"},
	} {
		t.Run(name, func(t *testing.T) {
			if name != "replaced" && name != "in an ancestor node_modules" {
				longtest.Require(t, "another damaged install of the npm packages")
			}
			_, proj := installed(t)
			tc.damage(t, filepath.Join(proj, "node_modules/@plangate-gc/river-gc-linux-"+npmtest.HostCPU()))
			root := tree(t)
			o, e, c := npmtest.Run(t, proj, nil, "npx", "--offline", "river-gc", "--root", root, "--force", "--now", "2026-01-01T00:00:00Z")
			if c != 2 || len(o) != 0 || !strings.HasPrefix(string(e), "river-gc (npm): ") || !strings.Contains(string(e), tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", c, o, e, tc.want)
			}
			if _, err := os.Stat(filepath.Join(root, ".river/memory/old.json")); err != nil {
				t.Errorf("the refused run touched the tree: %v", err)
			}
		})
	}
}

// editManifest rewrites the package.json in dir through edit.
func editManifest(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	p := filepath.Join(dir, "package.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	unmarshal(t, b, &m)
	edit(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestShimNamesAnUnsupportedPlatform: on a platform without a package the
// shim says which platforms it has and exits 2.
func TestShimNamesAnUnsupportedPlatform(t *testing.T) {
	t.Parallel()
	longtest.Require(t, "another install of the npm packages")
	_, proj := installed(t)
	for _, pa := range [][2]string{{"linux", "ia32"}, {"darwin", "arm64"}, {"win32", "x64"}} {
		preload := filepath.Join(t.TempDir(), "platform.js")
		js := fmt.Sprintf("Object.defineProperty(process, 'platform', { value: %q });\nObject.defineProperty(process, 'arch', { value: %q });\n", pa[0], pa[1])
		if err := os.WriteFile(preload, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		o, e, c := npmtest.Run(t, proj, nil, "node", "-r", preload, "node_modules/@plangate-gc/river-gc/bin/river-gc.js", "--version")
		want := "river-gc (npm): river-gc " + v + " has no binary for " + pa[0] + "-" + pa[1] + " (it runs on linux-arm64, linux-x64)\n"
		if c != 2 || len(o) != 0 || string(e) != want {
			t.Errorf("%s/%s: exit %d, stdout %q, stderr %q, want exit 2 and %q", pa[0], pa[1], c, o, e, want)
		}
	}
}

// TestNpmInstallOfTheTarballs: the plainest offline install, `npm install
// --offline SHIM.tgz PLATFORM.tgz` in an empty project, satisfies the
// shim's optional dependency with the given platform package, skips the
// other one, and npx runs the release.
func TestNpmInstallOfTheTarballs(t *testing.T) {
	t.Parallel()
	longtest.Require(t, "another install of the npm packages")
	rel := npmtest.Build(t)
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"p","private":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if o, e, c := npmtest.Run(t, proj, nil, "npm", "install", "--no-audit", "--no-fund", rel.Shim(), rel.Platform(npmtest.HostCPU())); c != 0 {
		t.Fatalf("npm install: exit %d\n%s\n%s", c, o, e)
	}
	o, e, c := npmtest.Run(t, proj, nil, "npx", "river-gc", "--version")
	if c != 0 || !strings.Contains(string(o), "v"+v) {
		t.Errorf("npx river-gc --version: exit %d, %q, %q", c, o, e)
	}
}

// TestNpxSignalsStopRiverGcAsDirectly: a terminal's Ctrl-C or Ctrl-\
// (SIGINT or SIGQUIT to the whole process group of `npx river-gc
// --force`: npm, the shim and, through the shim, river-gc) and a SIGTERM
// to npx stop river-gc as one signal sent to it directly does: it
// finishes the files in hand, writes its record with one "interrupted"
// error and exits 1; the shim exits after it with its code, and npx with
// that code (or by the signal it received itself: npm re-raises it once
// its child has ended). npm forwards SIGTERM to the `sh -c` that runs the
// shim, which dies of it: the shim, seeing its parent gone, stops river-gc
// as SIGTERM does. A signal delivered twice (npm forwards what it gets to
// the shim, which the group's signal reached already) is one stop: the
// test sends river-gc one more copy itself once it runs again, and the
// record must still be written (decision 242). Then SIGKILL
// of npx's whole group: river-gc, whose parent (the shim) is gone, stops
// the same way.
func TestNpxSignalsStopRiverGcAsDirectly(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds a 20,000-file tree (run without -short)")
	}
	_, proj := installed(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: put Node 20 or 22 on PATH to run it")
	}
	npx := filepath.Join(filepath.Dir(node), "npx")
	for _, tc := range []struct {
		name   string
		signal syscall.Signal
		group  bool
	}{
		{"SIGINT to the group", syscall.SIGINT, true},
		{"SIGQUIT to the group", syscall.SIGQUIT, true},
		{"SIGTERM to npx", syscall.SIGTERM, false},
		{"SIGKILL of the group", syscall.SIGKILL, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.signal != syscall.SIGINT && tc.signal != syscall.SIGKILL {
				longtest.Require(t, "another signal through npx (a 20,000-file run)")
			}
			r := npmtest.StartInterruptible(t, node, proj, []string{npx, "--offline", "river-gc"}, "2026-01-01T00:00:00Z")
			if tc.group {
				syscall.Kill(-r.Cmd.Process.Pid, tc.signal)
			} else {
				r.Cmd.Process.Signal(tc.signal)
			}
			if tc.signal == syscall.SIGKILL {
				npmtest.WaitFor(t, "npx to die", func() bool {
					s := npmtest.ProcField(r.Cmd.Process.Pid, "State")
					return s == "" || strings.HasPrefix(s, "Z")
				})
			} else {
				bit := uint64(1) << (uint(tc.signal) - 1)
				npmtest.WaitFor(t, "the signal to be pending for river-gc", func() bool {
					mask, _ := strconv.ParseUint(npmtest.ProcField(r.Child, "ShdPnd"), 16, 64)
					return mask&bit != 0
				})
			}
			syscall.Kill(r.Child, syscall.SIGCONT)
			if tc.signal != syscall.SIGKILL {
				// The copy a wrapper passes on late (npm forwards what it
				// got to the shim, which the group's signal reached already;
				// node under load takes hundreds of milliseconds): it lands
				// after river-gc has taken the first, and must change
				// nothing (decision 242).
				syscall.Kill(r.Child, tc.signal)
			}
			err := r.Cmd.Wait()
			// npm re-raises a signal it received itself once its child
			// (the shim) has ended; the shim exits with river-gc's code.
			ws := r.Cmd.ProcessState.Sys().(syscall.WaitStatus)
			if tc.signal != syscall.SIGKILL && ws.ExitStatus() != 1 && !(ws.Signaled() && ws.Signal() == tc.signal) {
				t.Fatalf("npx: %v, want exit 1 (or npm's own death by the signal)\n%s", err, r.Stderr.String())
			}
			npmtest.WaitFor(t, "river-gc to exit", func() bool { return npmtest.ProcField(r.Child, "State") == "" })
			r.CheckInterrupted(t)
		})
	}
}
