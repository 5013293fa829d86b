//go:build linux

package main

// The custom testscript commands the river-gc scripts use to build and
// inspect trees (registered in TestScripts).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
)

// chtime PATH... RFC3339 sets the access and modification times of each
// PATH (a symlink's own times, never its target's); a directory is done
// recursively, itself included.
func cmdChtime(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: chtime PATH... RFC3339")
	}
	tm, err := time.Parse(time.RFC3339Nano, args[len(args)-1])
	ts.Check(err)
	stamp := []unix.Timespec{unix.NsecToTimespec(tm.UnixNano()), unix.NsecToTimespec(tm.UnixNano())}
	for _, p := range args[:len(args)-1] {
		ts.Check(filepath.WalkDir(ts.MkAbs(p), func(path string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return unix.UtimesNanoAt(unix.AT_FDCWD, path, stamp, unix.AT_SYMLINK_NOFOLLOW)
		}))
	}
}

// sparse PATH SIZE creates PATH (and its parents) as a sparse file of SIZE
// bytes; SIZE may end in K, M or G (binary multiples, so 300M is 300 of
// river gc's MB).
func cmdSparse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sparse PATH SIZE")
	}
	mult := int64(1)
	num := args[1]
	if i := strings.IndexAny(num, "KMG"); i >= 0 && i == len(num)-1 {
		mult = map[byte]int64{'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}[num[i]]
		num = num[:i]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	ts.Check(err)
	path := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
	f, err := os.Create(path)
	ts.Check(err)
	ts.Check(f.Truncate(n * mult))
	ts.Check(f.Close())
}

// mkfifo PATH creates a named pipe.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo PATH")
	}
	ts.Check(unix.Mkfifo(ts.MkAbs(args[0]), 0o644))
}

// rawfile PATH creates an empty file whose name may hold bytes that are not
// valid UTF-8, written as \xNN escapes (quote PATH with single quotes).
func cmdRawfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: rawfile PATH")
	}
	var b []byte
	for s := args[0]; s != ""; {
		if strings.HasPrefix(s, `\x`) && len(s) >= 4 {
			v, err := strconv.ParseUint(s[2:4], 16, 8)
			ts.Check(err)
			b = append(b, byte(v))
			s = s[4:]
			continue
		}
		b = append(b, s[0])
		s = s[1:]
	}
	ts.Check(os.WriteFile(ts.MkAbs(string(b)), nil, 0o644))
}

// copytree SRC DST copies a directory tree with its modes and times;
// symlinks are copied as symlinks, FIFOs recreated. It lets one script run
// several examples on fresh copies of one pristine repository.
func cmdCopytree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: copytree SRC DST")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	var dirs []string
	ts.Check(filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			if err := os.MkdirAll(to, 0o755); err != nil {
				return err
			}
			dirs = append(dirs, rel)
			return nil
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, to); err != nil {
				return err
			}
		case mode&fs.ModeNamedPipe != 0:
			if err := unix.Mkfifo(to, uint32(mode.Perm())); err != nil {
				return err
			}
		case mode.IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := os.WriteFile(to, data, mode.Perm()); err != nil {
				return err
			}
		default:
			return fmt.Errorf("copytree: cannot copy %s (%s)", path, mode)
		}
		return copyTimes(path, to)
	}))
	// Directory modes and times last, deepest first, after their contents.
	slices.Reverse(dirs)
	for _, rel := range dirs {
		info, err := os.Lstat(filepath.Join(src, rel))
		ts.Check(err)
		ts.Check(os.Chmod(filepath.Join(dst, rel), info.Mode().Perm()))
		ts.Check(copyTimes(filepath.Join(src, rel), filepath.Join(dst, rel)))
	}
}

func copyTimes(from, to string) error {
	var st unix.Stat_t
	if err := unix.Lstat(from, &st); err != nil {
		return err
	}
	return unix.UtimesNanoAt(unix.AT_FDCWD, to, []unix.Timespec{st.Atim, st.Mtim}, unix.AT_SYMLINK_NOFOLLOW)
}

// tree DIR lists everything below DIR without following symlinks, one
// entry a line, sorted by path: its kind, path and identity (inode, mode,
// size, mtime; a symlink's target). Two listings of an untouched tree are
// identical; they are compared with cmp or gone, never with goldens.
func cmdTree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tree DIR")
	}
	root := ts.MkAbs(args[0])
	var lines []string
	ts.Check(filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == root {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		var st unix.Stat_t
		if err := unix.Lstat(path, &st); err != nil {
			return err
		}
		kind := map[uint32]string{unix.S_IFREG: "f", unix.S_IFDIR: "d", unix.S_IFLNK: "l", unix.S_IFIFO: "p"}[st.Mode&unix.S_IFMT]
		if kind == "" {
			kind = "?"
		}
		attrs := fmt.Sprintf("ino=%d mode=%o size=%d mtime=%s", st.Ino, st.Mode&0o7777, st.Size,
			time.Unix(st.Mtim.Unix()).UTC().Format(time.RFC3339Nano))
		if kind == "l" {
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			attrs += " -> " + target
		}
		lines = append(lines, kind+"\t"+filepath.ToSlash(rel)+"\t"+attrs)
		return nil
	}))
	slices.SortFunc(lines, func(a, b string) int { return strings.Compare(strings.Split(a, "\t")[1], strings.Split(b, "\t")[1]) })
	for _, l := range lines {
		fmt.Fprintln(ts.Stdout(), l)
	}
}

// gone BEFORE AFTER compares two tree listings: it prints the path of every
// entry that disappeared, "+ PATH" for every new entry and "~ PATH" for
// every non-directory entry that changed (a directory's own attributes
// change when files in it are unlinked, so they are not compared), sorted
// by path.
func cmdGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gone BEFORE AFTER")
	}
	parse := func(name string) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(ts.ReadFile(name)), "\n") {
			if f := strings.SplitN(l, "\t", 3); len(f) == 3 {
				m[f[1]] = f[0] + "\t" + f[2]
			}
		}
		return m
	}
	before, after := parse(args[0]), parse(args[1])
	type line struct{ path, text string }
	var out []line
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			out = append(out, line{p, p})
		case a != b && !strings.HasPrefix(b, "d\t"):
			out = append(out, line{p, "~ " + p})
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			out = append(out, line{p, "+ " + p})
		}
	}
	slices.SortFunc(out, func(a, b line) int { return strings.Compare(a.path, b.path) })
	for _, l := range out {
		fmt.Fprintln(ts.Stdout(), l.text)
	}
}

// removed [-full] FILE prints the removed[] entries of FILE, sorted by
// path: FILE is river gc's --json result or plangate-gc --json output
// (one object per scope, whose removed[] are concatenated). With -full
// each line is "path sizeBytes reason", otherwise just the path. FILE may
// be stdout or stderr.
func cmdRemoved(ts *testscript.TestScript, neg bool, args []string) {
	full := len(args) > 0 && args[0] == "-full"
	if full {
		args = args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: removed [-full] FILE")
	}
	type entry struct {
		Path      string `json:"path"`
		SizeBytes uint64 `json:"sizeBytes"`
		Reason    string `json:"reason"`
	}
	var all []entry
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(args[0])))
	for {
		var doc struct {
			Removed *[]entry `json:"removed"`
		}
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		ts.Check(err)
		if doc.Removed == nil {
			ts.Fatalf("%s: a document without removed[]", args[0])
		}
		all = append(all, *doc.Removed...)
	}
	slices.SortFunc(all, func(a, b entry) int { return strings.Compare(a.Path, b.Path) })
	for _, e := range all {
		if full {
			fmt.Fprintf(ts.Stdout(), "%s %d %s\n", e.Path, e.SizeBytes, e.Reason)
		} else {
			fmt.Fprintln(ts.Stdout(), e.Path)
		}
	}
}

// holdlock DIR takes river gc's --force lock (sweep.Lock) on DIR in the
// test process, as a concurrent river gc --force run would, until unlock
// DIR or the end of the script.
func cmdHoldlock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: holdlock DIR")
	}
	dir := ts.MkAbs(args[0])
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	ts.Check(err)
	unlock, err := sweep.Lock(fd)
	unix.Close(fd) // the lock holds its own descriptor
	ts.Check(err)
	ts.Value(locksKey{}).(map[string]func() error)[dir] = unlock
	ts.Defer(func() { unlock() })
}

// unlock DIR releases a lock taken with holdlock.
func cmdUnlock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: unlock DIR")
	}
	dir := ts.MkAbs(args[0])
	locks := ts.Value(locksKey{}).(map[string]func() error)
	unlock, ok := locks[dir]
	if !ok {
		ts.Fatalf("unlock %s: not held", args[0])
	}
	ts.Check(unlock())
	delete(locks, dir)
}

// exits CODE PROG [ARGS...] runs PROG from PATH in the current directory
// and fails unless it exits with exactly CODE (exec only tells zero from
// non-zero); its stdout and stderr are then checked with stdout/stderr.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROG [ARGS...]")
	}
	prog, err := lookPath(ts, args[1])
	ts.Check(err)
	runChecked(ts, args[0], prog, args[2:], nil)
}

// runas-nobody CODE river-gc [ARGS...] runs river-gc as uid and gid 65534
// with no supplementary groups, in the current directory, and fails unless
// it exits with CODE. The script must make the tree usable for that user
// (chown-nobody) and skip when not root.
func cmdRunasNobody(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || args[1] != "river-gc" {
		ts.Fatalf("usage: runas-nobody CODE river-gc [ARGS...]")
	}
	runChecked(ts, args[0], ts.Value(nobodyKey{}).(string), args[2:],
		&syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}})
}

// chown-nobody PATH... gives each PATH, recursively, to uid and gid 65534.
func cmdChownNobody(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: chown-nobody PATH...")
	}
	for _, p := range args {
		ts.Check(filepath.WalkDir(ts.MkAbs(p), func(path string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(path, nobody, nobody)
		}))
	}
}

func lookPath(ts *testscript.TestScript, name string) (string, error) {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found in PATH", name)
}

// runChecked runs prog like exec does (script directory, script
// environment, empty stdin) with a time limit, records its output for
// stdout/stderr and checks that it exits with code.
func runChecked(ts *testscript.TestScript, code, prog string, args []string, attr *syscall.SysProcAttr) {
	want, err := strconv.Atoi(code)
	ts.Check(err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.SysProcAttr = attr
	cmd.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "GORACE", "GOCOVERDIR", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := ts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.Env = append(cmd.Env, "PWD="+cmd.Dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	ts.Stdout().Write(stdout.Bytes())
	ts.Stderr().Write(stderr.Bytes())
	got := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(runErr, &exitErr):
		got = exitErr.ExitCode()
	case runErr != nil:
		ts.Fatalf("%s: %v", cmd.Args[0], runErr)
	}
	if ctx.Err() != nil {
		ts.Fatalf("%s: timed out", cmd.Args[0])
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", filepath.Base(cmd.Args[0]), got, want)
	}
}

// cmdPerm: perm MODE PATH — assert a file's permission bits (octal).
func cmdPerm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: perm MODE PATH")
	}
	want, err := strconv.ParseUint(args[0], 8, 32)
	ts.Check(err)
	st, err := os.Stat(ts.MkAbs(args[1]))
	ts.Check(err)
	if got := st.Mode().Perm(); got != os.FileMode(want) {
		ts.Fatalf("%s has mode %o, want %o", args[1], got, want)
	}
}
