//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// scopePrivate is where a --force run keeps .river/tmp, exchanged for a
// fresh empty directory, while it deletes the files in it (package
// sweep, Options.Exchange).
const scopePrivate = ".river/" + heldPrefix + "tmp"

// scopeTree writes n removable files (at forceArgs' --now) directly into
// .river/tmp, the tmp scope's own directory, and returns their
// root-relative paths, sorted.
func scopeTree(t *testing.T, root string, n int) []string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".river/tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range n {
		rel := fmt.Sprintf(".river/tmp/f%05d", i)
		if err := os.WriteFile(filepath.Join(root, rel), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, rel)
	}
	return paths
}

// A straceStop is a moment of a --force run: strace stops it each time a call
// of the system call call on the name path returns (startHeldIn; its
// injection counter also counts the calls on other names, so every call
// on path is stopped at), and the test knows it has come from the nth
// inotify event of the kinds mask naming event in the directory watch
// (root-relative), continuing the run from the stops before. strace
// 6.1 stops no unlinkat or statx so (with -P, the call is traced and not
// injected): a moment among those is an event (event, after).
type straceStop struct {
	call, path string
	event
	nth int
}

// An event is an inotify event of the kinds mask naming name in the
// directory watch (root-relative).
type event struct {
	watch string
	mask  uint32
	name  string
}

// The moments of an exchange of .river/tmp (sweep's takeExchange and
// putBackExchanged), and two events in between.
var (
	freshMade    = straceStop{"mkdirat", heldPrefix + "tmp", event{".river", unix.IN_CREATE, heldPrefix + "tmp"}, 1}
	exchanged    = straceStop{"renameat2", "tmp", event{".river", unix.IN_MOVED_TO, heldPrefix + "tmp"}, 1}
	exchangedOut = straceStop{"renameat2", "tmp", event{".river", unix.IN_MOVED_TO, "tmp"}, 2} // each exchange moves both names
	oneDeleted   = event{scopePrivate, unix.IN_DELETE, "f01500"}                               // once exchanged

	freshRemoved = event{".river", unix.IN_DELETE, heldPrefix + "tmp"}
)

// A moment is a straceStop, and maybe an event the run is then continued to.
type moment struct {
	name  string
	stop  straceStop
	after *event
}

// watch is an inotify descriptor watching e's directory below root.
func watch(t *testing.T, root string, e event) int {
	t.Helper()
	in, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify (which these tests see a moment with) is not available: %v", err)
	}
	if _, err := unix.InotifyAddWatch(in, filepath.Join(root, e.watch), e.mask); err != nil {
		unix.Close(in)
		t.Fatal(err)
	}
	return in
}

// startStoppedAt starts river-gc --force on root and returns it stopped
// at s.
func startStoppedAt(t *testing.T, bin, root string, s straceStop) *heldRun {
	t.Helper()
	in := watch(t, root, s.event)
	defer unix.Close(in)
	r := startTraced(t, bin, root, []string{"-P", s.path, "-e", "trace=" + s.call, "-e", "inject=" + s.call + ":signal=SIGSTOP:when=1+"})
	r.stopAfter(t, in, s.name, s.nth, s.call+" "+s.path)
	return r
}

// signalAfter continues the stopped run, and every later strace stop of
// it, until the event e (in the directory watched from before the run
// goes on), then sends it sig; for SIGSTOP it waits until the run is
// stopped. It reports false when the run ended first.
func (r *heldRun) signalAfter(t *testing.T, root string, e event, sig syscall.Signal) bool {
	t.Helper()
	in := watch(t, root, e)
	defer unix.Close(in)
	buf := make([]byte, 64<<10)
	for r.signal(syscall.SIGCONT); ; {
		fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, 10); err != nil && err != unix.EINTR {
			t.Fatal(err)
		}
		n, _ := unix.Read(in, buf)
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			l := int(uint32(buf[off+12]) | uint32(buf[off+13])<<8 | uint32(buf[off+14])<<16 | uint32(buf[off+15])<<24)
			ev := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+l]), "\x00")
			off += unix.SizeofInotifyEvent + l
			if ev == e.name {
				r.signal(sig)
				if sig == syscall.SIGSTOP {
					r.waitStopped(t)
				}
				return true
			}
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d/task", r.pid)); err != nil {
			return false
		}
		if r.stopped() {
			r.signal(syscall.SIGCONT)
		}
	}
}

// writeKept writes a file River Review's way (mkdir -p, then the file)
// with a timestamp river gc keeps at forceArgs' --now.
func writeKept(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, rel), []byte(`{"timestamp":"2199-12-31T00:00:00Z"}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

// inode is rel's inode number below root.
func inode(t *testing.T, root, rel string) uint64 {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(filepath.Join(root, rel), &st); err != nil {
		t.Fatal(err)
	}
	return st.Ino
}

// TestScopeDirectoryExchangedKeepsItsPath (SPEC P3, decision 360): while
// a --force run deletes the files lying directly in .river/tmp, the path
// .river/tmp is always a directory: a writer's mkdir -p and writeFile
// work, a file replaced by path (temporary file, rename onto a target's
// name) lands there too. Afterwards .river/tmp is the same directory
// (inode) as before, the writers' files are at their paths, a target
// appended to through a descriptor opened before is kept at its own
// path (errors[]), every other target is removed, and nothing is left
// under a private name.
func TestScopeDirectoryExchangedKeepsItsPath(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	before := scopeTree(t, root, 3000)
	ino := inode(t, root, ".river/tmp")
	last, onto := before[len(before)-1], before[len(before)-2]
	appender, err := os.OpenFile(filepath.Join(root, last), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer appender.Close()
	r := startStoppedAt(t, bin, root, exchanged)
	if fi, err := os.Lstat(filepath.Join(root, ".river/tmp")); err != nil || !fi.IsDir() {
		t.Fatalf("while exchanged, .river/tmp is not a directory: %v", err)
	}
	if n := len(regularFiles(t, filepath.Join(root, scopePrivate))); n != len(before) {
		t.Fatalf("while exchanged, %s holds %d files, want the %d scanned", scopePrivate, n, len(before))
	}
	if _, err := appender.WriteString("more"); err != nil {
		t.Fatal(err)
	}
	writeKept(t, root, ".river/tmp/new.json")
	writeKept(t, root, ".river/tmp/sub/deeper.json")
	if err := os.WriteFile(filepath.Join(root, ".river/tmp/tmp-write"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, ".river/tmp/tmp-write"), filepath.Join(root, onto)); err != nil {
		t.Fatal(err)
	}
	code, rec := r.finish(t)
	if got := inode(t, root, ".river/tmp"); got != ino {
		t.Errorf(".river/tmp is inode %d after the run, %d before: not the same directory", got, ino)
	}
	for rel, want := range map[string]string{last: "xmore", onto: "mine"} {
		if b, err := os.ReadFile(filepath.Join(root, rel)); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", rel, b, err, want)
		}
	}
	for _, rel := range []string{".river/tmp/new.json", ".river/tmp/sub/deeper.json"} {
		if b, err := os.ReadFile(filepath.Join(root, rel)); err != nil || !strings.Contains(string(b), "2199") {
			t.Errorf("the writer's %s: %q, %v", rel, b, err)
		}
	}
	if left := privateNames(root); len(left) != 0 {
		t.Errorf("left under a private name: %q", left)
	}
	if got, want := removedPaths(rec), before[:len(before)-1]; !slices.Equal(got, want) {
		t.Errorf("removed[] lists %d paths, want the %d deleted", len(got), len(want))
	}
	if code != 1 || len(rec.Errors) != 1 || rec.Errors[0].Path != last {
		t.Errorf("exit %d, errors %+v; want exit 1 and one error, for %s (changed)", code, rec.Errors, last)
	}
}

// TestKilledAtEachStepOfAScopeExchange (SPEC B4, B8.8, P3): a --force
// run deleting the files directly in .river/tmp is SIGKILLed at each
// step of the exchange — the fresh directory made, the exchange, among
// the deletions, the exchange back, the fresh directory removed — with a
// writer's file made at .river/tmp just before. Each time the next
// dry-run names in interrupted.removed exactly the files that are gone
// (none still under the private name) and names the held directory when
// one is left; the next --force run reports the same, puts everything
// back, removes exactly the rest, keeps the writer's file at its path,
// leaves no private name and no journal, and exits 0.
func TestKilledAtEachStepOfAScopeExchange(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, step := range []moment{
		{"fresh directory made", freshMade, nil},
		{"exchanged", exchanged, nil},
		{"among the deletions", exchanged, &oneDeleted},
		{"exchanged back", exchangedOut, nil},
		{"fresh directory removed", exchangedOut, &freshRemoved},
	} {
		t.Run(step.name, func(t *testing.T) {
			root := memDir(t)
			before := scopeTree(t, root, 3000)
			r := startStoppedAt(t, bin, root, step.stop)
			writeKept(t, root, ".river/tmp/new.json")
			if step.after != nil && !r.signalAfter(t, root, *step.after, syscall.SIGKILL) {
				t.Fatalf("the run ended before the event %+v", *step.after)
			}
			r.signal(syscall.SIGKILL)
			r.cmd.Wait()
			var recorded []string // what the killed run's own record names, when it got so far
			if b, err := os.ReadFile(r.result); err == nil {
				recorded = removedPaths(readRecord(t, b))
			}
			there := map[string]bool{}
			for _, p := range regularFiles(t, root) {
				there[strings.Replace(p, scopePrivate+"/", ".river/tmp/", 1)] = true
			}
			gone := slices.DeleteFunc(slices.Clone(before), func(p string) bool { return there[p] })
			dry, code := runGC(t, bin, "--json", "--root", root, "--now", future, "--max-entries", "1000000")
			var named []string
			if rec := readRecord(t, dry); rec.Interrupted != nil {
				named = rec.Interrupted.Removed
			}
			for _, p := range gone {
				if !slices.Contains(named, p) && !slices.Contains(recorded, p) {
					t.Fatalf("%s is gone and no record names it", p)
				}
			}
			for _, p := range named {
				if there[p] {
					t.Fatalf("%s is named as deleted by the killed run but is still there", p)
				}
			}
			if code != 0 {
				t.Fatalf("dry-run: exit %d", code)
			}
			if _, err := os.Lstat(filepath.Join(root, scopePrivate)); err == nil && len(heldWarnings(t, dry)) != 1 {
				t.Errorf("the dry-run does not name %s: %+v", scopePrivate, heldWarnings(t, dry))
			}
			out, code := runGC(t, bin, append(forceArgs, "--root", root)...)
			rec := readRecord(t, out)
			if code != 0 || len(rec.Errors) != 0 {
				t.Errorf("the next --force: exit %d, errors %+v", code, rec.Errors)
			}
			var got []string
			if rec.Interrupted != nil {
				got = rec.Interrupted.Removed
			}
			if !slices.Equal(got, named) {
				t.Errorf("the next --force names %d files as the killed run's, the dry-run %d", len(got), len(named))
			}
			rest := slices.DeleteFunc(slices.Clone(before), func(p string) bool { return slices.Contains(gone, p) })
			if got := removedPaths(rec); !slices.Equal(got, rest) {
				t.Errorf("removed[] lists %d files, want the %d the killed run left", len(got), len(rest))
			}
			if left := regularFiles(t, root); !slices.Equal(left, []string{".river/tmp/new.json"}) {
				t.Errorf("left: %d files, e.g. %q; want the writer's only", len(left), left[:min(len(left), 3)])
			}
			if left := privateNames(root); len(left) != 0 {
				t.Errorf("left under a private name: %q", left)
			}
		})
	}
}

// TestScopeDirectorySwappedDuringExchange (attack, SPEC B2): while a
// --force run has .river/tmp exchanged (before it opened the directory
// under the private name, or among its deletions there), that directory
// is moved out of the root and a symlink to a decoy directory holding
// files of the same names is put in its place; or the fresh directory at
// .river/tmp is replaced by such a symlink. No decoy file is touched and
// none is moved into, the symlink is never put at .river/tmp by the run,
// and what is deleted is only ever a scanned file, each named in
// removed[].
func TestScopeDirectorySwappedDuringExchange(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, at := range []moment{{"exchanged", exchanged, nil}, {"among the deletions", exchanged, &oneDeleted}} {
		for _, swap := range []string{"private", "name"} {
			t.Run(at.name+", "+swap, func(t *testing.T) {
				root := memDir(t)
				before := scopeTree(t, root, 3000)
				elsewhere := memDir(t) // the same file system: a rename can move it there
				decoy := filepath.Join(elsewhere, "decoy")
				writeDecoy(t, decoy, before)
				r := startStoppedAt(t, bin, root, at.stop)
				if at.after != nil && !r.signalAfter(t, root, *at.after, syscall.SIGSTOP) {
					t.Fatal("the run ended before it deleted f01500")
				}
				moved := filepath.Join(elsewhere, "moved")
				link := filepath.Join(root, ".river/tmp")
				if swap == "private" {
					if err := os.Rename(filepath.Join(root, scopePrivate), moved); err != nil {
						t.Fatal(err)
					}
					link = filepath.Join(root, scopePrivate)
				} else if err := os.Remove(link); err != nil { // the fresh directory, empty
					t.Fatal(err)
				}
				if err := os.Symlink(decoy, link); err != nil {
					t.Fatal(err)
				}
				_, rec := r.finish(t)
				checkDecoy(t, decoy, len(before))
				held := moved // where the exchanged directory is now
				if swap == "name" {
					held = filepath.Join(root, scopePrivate)
				}
				var gone []string
				for _, p := range before {
					if _, err := os.Lstat(filepath.Join(held, filepath.Base(p))); err != nil {
						gone = append(gone, p)
					}
				}
				if got := removedPaths(rec); !slices.Equal(got, gone) {
					t.Errorf("removed[] lists %d files, %d are gone", len(got), len(gone))
				}
				if fi, err := os.Lstat(filepath.Join(root, ".river/tmp")); swap == "private" && (err != nil || !fi.IsDir()) {
					t.Errorf(".river/tmp is not the fresh directory after the run: %v", err)
				}
			})
		}
	}
}

// writeDecoy makes the directory decoy with a file "decoy" named as the
// last component of each of paths.
func writeDecoy(t *testing.T, decoy string, paths []string) {
	t.Helper()
	if err := os.Mkdir(decoy, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if err := os.WriteFile(filepath.Join(decoy, filepath.Base(p)), []byte("decoy"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkDecoy fails unless the directory decoy holds its n files, each
// still "decoy".
func checkDecoy(t *testing.T, decoy string, n int) {
	t.Helper()
	names, err := os.ReadDir(decoy)
	if err != nil || len(names) != n {
		t.Fatalf("the decoy holds %d entries (%v), want its %d files", len(names), err, n)
	}
	for _, e := range names {
		if b, err := os.ReadFile(filepath.Join(decoy, e.Name())); err != nil || string(b) != "decoy" {
			t.Fatalf("decoy %s: %q, %v", e.Name(), b, err)
		}
	}
}

// TestScopeDirectoryMountedOverDuringExchange (attack, SPEC B2 "Mounts"):
// the moment a --force run has exchanged .river/tmp, a decoy directory
// outside the root, holding files of the same names, is bind-mounted over
// the fresh directory at .river/tmp, or over the private name. No decoy
// file is touched or moved into; what the run cannot reach stays under
// its private name, named in errors[]; and once the mount is gone the
// next --force run puts it back and removes it, so that the two runs'
// removed[] together name every scanned file once and nothing is left.
func TestScopeDirectoryMountedOverDuringExchange(t *testing.T) {
	t.Parallel()
	if !inPrivateMounts(t) {
		return
	}
	bin := buildBinary(t)
	for _, over := range []string{".river/tmp", scopePrivate} {
		root := t.TempDir()
		before := scopeTree(t, root, 2000)
		decoy := filepath.Join(t.TempDir(), "decoy")
		writeDecoy(t, decoy, before)
		r := startStoppedAt(t, bin, root, exchanged)
		at := filepath.Join(root, over)
		if out, err := exec.Command("mount", "--bind", decoy, at).CombinedOutput(); err != nil {
			t.Skipf("mount --bind: %v %s", err, out)
		}
		_, first := r.finish(t)
		if out, err := exec.Command("umount", at).CombinedOutput(); err != nil {
			t.Fatalf("umount %s: %v %s", over, err, out)
		}
		checkDecoy(t, decoy, len(before))
		if len(first.Removed) < len(before) && !slices.ContainsFunc(first.Errors, func(e struct{ Path, Message string }) bool { return e.Path == ".river/tmp" }) {
			t.Errorf("over %s: %d of %d removed and errors[] does not name .river/tmp: %+v", over, len(first.Removed), len(before), first.Errors)
		}
		out, code := runGC(t, bin, append(forceArgs, "--root", root)...)
		all := append(removedPaths(first), removedPaths(readRecord(t, out))...)
		slices.Sort(all)
		if !slices.Equal(all, before) {
			t.Errorf("over %s: the two runs removed %d files, want the %d scanned, each once", over, len(all), len(before))
		}
		if left := privateNames(root); code != 0 || len(left) != 0 || len(regularFiles(t, root)) != 0 {
			t.Errorf("over %s: the next --force: exit %d, private names %q, files %q; %.300s", over, code, left, regularFiles(t, root), out)
		}
	}
}

// TestDryRunBesideAnExchangingForce (SPEC B4 "truthful words"): a dry-run
// while a --force run has .river/tmp exchanged does not call the
// exchanged directory a leftover or a held directory of an interrupted
// run, nor report the live run's journal as a killed run's.
func TestDryRunBesideAnExchangingForce(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	scopeTree(t, root, 3000)
	r := startStoppedAt(t, bin, root, exchanged)
	out, _ := exec.Command(bin, "--json", "--root", root, "--now", future, "--max-entries", "1000000").Output()
	rec := readRecord(t, out)
	if slices.Contains(warningKinds(t, out), "leftover") || len(heldWarnings(t, out)) > 0 || rec.Interrupted != nil {
		t.Errorf("the dry-run beside a live --force: interrupted %+v; record %.800s", rec.Interrupted, out)
	}
	if code, _ := r.finish(t); code != 0 {
		t.Errorf("the --force run: exit %d; stderr %s", code, r.stderr)
	}
}
