//go:build linux

package scan

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/asnobody"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/skill"
)

// buildRepo creates a tree touching every scope, plus things that must not
// be listed.
func buildRepo(t *testing.T) (root, outside string) {
	root, outside = t.TempDir(), t.TempDir()
	for _, p := range []string{
		".river/memory/index.json",
		".river/memory/snapshots/a.json",
		".river/memory/snapshots/deep/er/b.bin",
		".river/memory/.hidden",
		"artifacts/evals/run-1/result.json",
		"artifacts/evals/run-2/snap.txt",
		"artifacts/review-artifact.json",
		"artifacts/review-artifact-42.json",
		"artifacts/review-artifact.schema.json",
		"artifacts/review-summary.md",
		"artifacts/review-.md",
		"artifacts/gc-result.json",
		"artifacts/review-artifact.md",
		"artifacts/sub/review-x.md",
		".river/tmp/t1",
		".river/tmp/x/t2",
		"artifacts/.tmp/t3",
		"README.md",
		".river/other/o.json",
	} {
		write(t, root, p, "x", epoch)
	}
	mkdir(t, root, ".river/memory/empty")
	mkdir(t, root, "artifacts/review-dir.md")
	write(t, outside, "secret.json", `{"timestamp":"2020-01-01T00:00:00Z"}`, epoch)
	write(t, outside, "dir/inner.txt", "x", epoch)
	symlink(t, "run-1", root, "artifacts/evals/latest")
	symlink(t, filepath.Join(outside, "secret.json"), root, ".river/memory/out-file.json")
	symlink(t, filepath.Join(outside, "dir"), root, ".river/memory/out-dir")
	symlink(t, "index.json", root, ".river/memory/in-file.json")
	symlink(t, "snapshots", root, ".river/memory/in-dir")
	symlink(t, "nowhere", root, ".river/memory/dangling")
	symlink(t, filepath.Join(outside, "secret.json"), root, "artifacts/review-artifact-link.json")
	symlink(t, filepath.Join(outside, "dir"), root, ".river/tmp/out")
	return root, outside
}

func TestScanScopes(t *testing.T) {
	root, _ := buildRepo(t)
	tests := []struct {
		scope skill.Scope
		want  []string
	}{
		{skill.ScopeMemory, []string{
			".river/memory/.hidden",
			".river/memory/index.json",
			".river/memory/snapshots/a.json",
			".river/memory/snapshots/deep/er/b.bin",
		}},
		{skill.ScopeEvals, []string{
			"artifacts/evals/run-1/result.json",
			"artifacts/evals/run-2/snap.txt",
		}},
		{skill.ScopeReviewArtifacts, []string{
			"artifacts/review-.md",
			"artifacts/review-artifact-42.json",
			"artifacts/review-artifact.json",
			"artifacts/review-artifact.md",
			"artifacts/review-artifact.schema.json",
			"artifacts/review-summary.md",
		}},
		{skill.ScopeTmp, []string{
			".river/tmp/t1",
			".river/tmp/x/t2",
			"artifacts/.tmp/t3",
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.scope), func(t *testing.T) {
			res := scanRoot(t, root, tt.scope, Options{Metadata: true})
			if got := paths(res.Files); !slices.Equal(got, tt.want) {
				t.Errorf("files:\n got %q\nwant %q", got, tt.want)
			}
			if len(res.Errors) != 0 {
				t.Errorf("errors: %+v", res.Errors)
			}
		})
	}
}

func TestScanSymlinksNotFollowed(t *testing.T) {
	root, _ := buildRepo(t)
	tests := []struct {
		scope skill.Scope
		path  string
	}{
		{skill.ScopeEvals, "artifacts/evals/latest"},
		{skill.ScopeMemory, ".river/memory/out-file.json"},
		{skill.ScopeMemory, ".river/memory/out-dir"},
		{skill.ScopeMemory, ".river/memory/in-file.json"},
		{skill.ScopeMemory, ".river/memory/in-dir"},
		{skill.ScopeMemory, ".river/memory/dangling"},
		{skill.ScopeReviewArtifacts, "artifacts/review-artifact-link.json"},
		{skill.ScopeTmp, ".river/tmp/out"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := scanRoot(t, root, tt.scope, Options{Metadata: true})
			for _, f := range res.Files {
				if f.Path == tt.path || len(f.Path) > len(tt.path) && f.Path[:len(tt.path)+1] == tt.path+"/" {
					t.Errorf("listed %s through symlink %s", f.Path, tt.path)
				}
			}
			if !hasNote(res.Notes, tt.path, NoteSymlink) {
				t.Errorf("no symlink note for %s: %+v", tt.path, res.Notes)
			}
		})
	}
}

func TestScanScopeDirIsSymlink(t *testing.T) {
	tests := []struct {
		name, link string
		scope      skill.Scope
		noteAt     string
	}{
		{"memory dir", ".river/memory", skill.ScopeMemory, ".river/memory"},
		{"river parent", ".river", skill.ScopeTmp, ".river"},
		{"artifacts parent/evals", "artifacts", skill.ScopeEvals, "artifacts"},
		{"artifacts parent/review", "artifacts", skill.ScopeReviewArtifacts, "artifacts"},
		{"evals dir", "artifacts/evals", skill.ScopeEvals, "artifacts/evals"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			for _, p := range []string{"a.json", "review-artifact.json", "evals/x", "memory/m", "tmp/t"} {
				write(t, outside, p, "{}", epoch)
			}
			symlink(t, outside, root, tt.link)
			res := scanRoot(t, root, tt.scope, Options{Metadata: true})
			if len(res.Files) != 0 || len(res.Errors) != 0 {
				t.Errorf("want empty scope, got files %q errors %+v", paths(res.Files), res.Errors)
			}
			if !hasNote(res.Notes, tt.noteAt, NoteSymlink) {
				t.Errorf("no note at %s: %+v", tt.noteAt, res.Notes)
			}
		})
	}
}

func TestScanSpecialFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".river/memory/real.json", `{"timestamp":"2021-01-01T00:00:00Z"}`, epoch)
	for _, name := range []string{"fifo", "fifo.json"} {
		if err := syscall.Mkfifo(filepath.Join(root, ".river/memory", name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sock, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(sock)
	if err := unix.Bind(sock, &unix.SockaddrUnix{Name: filepath.Join(root, ".river/memory/sock.json")}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mknod(filepath.Join(root, ".river/memory/null.json"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		t.Logf("mknod: %v (device case not covered)", err)
	}
	for _, meta := range []bool{true, false} {
		res := scanWithin(t, 10*time.Second, root, skill.ScopeMemory, Options{Metadata: meta})
		if got := paths(res.Files); !slices.Equal(got, []string{".river/memory/real.json"}) {
			t.Errorf("metadata=%v: files %q", meta, got)
		}
		if len(res.Errors) != 0 {
			t.Errorf("metadata=%v: errors %+v", meta, res.Errors)
		}
		want := []Note{
			{Path: ".river/memory/fifo", Kind: NoteSpecial, FileKind: fserr.KindOf(unix.S_IFIFO)},
			{Path: ".river/memory/fifo.json", Kind: NoteSpecial, FileKind: fserr.KindOf(unix.S_IFIFO)},
			{Path: ".river/memory/sock.json", Kind: NoteSpecial, FileKind: fserr.KindOf(unix.S_IFSOCK)},
		}
		for _, n := range want {
			if !slices.Contains(res.Notes, n) {
				t.Errorf("metadata=%v: no note %+v in %+v", meta, n, res.Notes)
			}
		}
	}
}

func TestScanIdentity(t *testing.T) {
	root := t.TempDir()
	mt := time.Unix(1_700_000_000, 987_654_321)
	write(t, root, ".river/tmp/f", "hello", mt)
	res := scanRoot(t, root, skill.ScopeTmp, Options{Metadata: true})
	if len(res.Files) != 1 {
		t.Fatalf("files %+v", res.Files)
	}
	f := res.Files[0]
	var st syscall.Stat_t
	if err := syscall.Lstat(filepath.Join(root, ".river/tmp/f"), &st); err != nil {
		t.Fatal(err)
	}
	want := File{
		Path: ".river/tmp/f", Size: 5, Timestamp: 1_700_000_000, TimestampSource: SourceMtime,
		Dev: st.Dev, Ino: st.Ino, MtimeNs: mt.UnixNano(), CtimeNs: st.Ctim.Sec*1e9 + st.Ctim.Nsec,
		Allocated: st.Blocks * 512, // SPEC B5: as du counts
	}
	if f != want {
		t.Errorf("got %+v\nwant %+v", f, want)
	}
}

func TestScanMtimeBefore1970(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".river/tmp/old", "x", time.Unix(-2, 500_000_000)) // -1.5 s
	res := scanRoot(t, root, skill.ScopeTmp, Options{})
	if len(res.Files) != 1 || res.Files[0].Timestamp != -2 || res.Files[0].MtimeNs != -1_500_000_000 {
		t.Errorf("got %+v, want Timestamp -2 (floored), MtimeNs -1500000000", res.Files)
	}
}

func TestScanSortedByteOrder(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"artifacts/.tmp/b", ".river/tmp/a/b", ".river/tmp/a-b", ".river/tmp/B", ".river/tmp/a.b", ".river/tmp/é"} {
		write(t, root, p, "x", epoch)
	}
	res := scanRoot(t, root, skill.ScopeTmp, Options{})
	want := []string{".river/tmp/B", ".river/tmp/a-b", ".river/tmp/a.b", ".river/tmp/a/b", ".river/tmp/é", "artifacts/.tmp/b"}
	if got := paths(res.Files); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestScanMissingScopeDirs(t *testing.T) {
	tests := []struct {
		name  string
		setup func(root string)
	}{
		{"empty root", func(string) {}},
		{"parents only", func(root string) {
			os.MkdirAll(filepath.Join(root, ".river"), 0o755)
			os.MkdirAll(filepath.Join(root, "artifacts"), 0o755)
		}},
		{"scope dirs are files", func(root string) {
			os.WriteFile(filepath.Join(root, ".river"), nil, 0o644)
			os.WriteFile(filepath.Join(root, "artifacts"), nil, 0o644)
		}},
	}
	for _, tt := range tests {
		for _, scope := range skill.Scopes() {
			if scope.Store() != "" {
				continue // an entry scope reads one file, not directories (package gc)
			}
			t.Run(tt.name+"/"+string(scope), func(t *testing.T) {
				root := t.TempDir()
				tt.setup(root)
				res := scanRoot(t, root, scope, Options{Metadata: true})
				if len(res.Files) != 0 || len(res.Errors) != 0 {
					t.Errorf("want empty, got %+v", res)
				}
			})
		}
	}
}

func TestScanBadRootAndScope(t *testing.T) {
	root := t.TempDir()
	res := scanRoot(t, root, "all", Options{})
	if len(res.Errors) != 1 || res.Errors[0].Path != "." || res.Errors[0].Op != fserr.OpOpenDir ||
		!errors.Is(res.Errors[0], fserr.ErrUnknownScope) {
		t.Errorf("unknown scope: got %+v", res.Errors)
	}
	// A descriptor that is not a directory is not a root.
	f, err := os.Create(filepath.Join(root, "file"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res = Scan(int(f.Fd()), skill.ScopeMemory, Options{})
	if len(res.Errors) != 1 || res.Errors[0].Op != fserr.OpOpenRoot || !errors.Is(res.Errors[0], fserr.ErrNotDir) {
		t.Errorf("file as root: got %+v", res.Errors)
	}
	// A closed descriptor.
	res = Scan(1<<20, skill.ScopeMemory, Options{})
	if len(res.Errors) != 1 || res.Errors[0].Op != fserr.OpOpenRoot || !errors.Is(res.Errors[0], unix.EBADF) {
		t.Errorf("bad descriptor: got %+v", res.Errors)
	}
}

func TestScanNonUTF8Names(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".river/memory/ok.json", "{}", epoch)
	write(t, root, ".river/memory/bad\xff.json", "{}", epoch)
	write(t, root, ".river/memory/d\xfe\xc3/inner", "x", epoch)
	write(t, root, ".river/memory/real\uFFFD.txt", "x", epoch)
	symlink(t, "ok.json", root, ".river/memory/link\x80")
	res := scanRoot(t, root, skill.ScopeMemory, Options{Metadata: true})
	if got, want := paths(res.Files), []string{".river/memory/ok.json", ".river/memory/real\uFFFD.txt"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	want := []errKey{
		// The names byte for byte: the edges encode them (decision 45).
		{Op: fserr.OpStat, Path: ".river/memory/bad\xff.json", Cause: fserr.ErrNotUTF8},
		{Op: fserr.OpOpenDir, Path: ".river/memory/d\xfe\xc3", Cause: fserr.ErrNotUTF8},
	}
	if got := errKeys(res.Errors); !slices.Equal(got, want) {
		t.Errorf("errors:\n got %+v\nwant %+v", got, want)
	}
	if !hasNote(res.Notes, `.river/memory/link\x80`, NoteSymlink) {
		t.Errorf("notes %+v", res.Notes)
	}
}

func TestScanOtherFileSystem(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	tests := []struct {
		name, mountAt string
		scope         skill.Scope
		want          []string
	}{
		{"nested dir", ".river/memory/mnt", skill.ScopeMemory, []string{".river/memory/keep.json"}},
		{"scope dir", ".river/memory", skill.ScopeMemory, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, ".river/memory/keep.json", "{}", epoch)
			mnt := filepath.Join(root, tt.mountAt)
			mkdir(t, root, tt.mountAt)
			if err := unix.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
				t.Skipf("cannot mount tmpfs: %v", err)
			}
			t.Cleanup(func() { unix.Unmount(mnt, unix.MNT_DETACH) })
			write(t, root, filepath.Join(tt.mountAt, "foreign.json"), "{}", epoch)
			res := scanRoot(t, root, tt.scope, Options{Metadata: true})
			if got := paths(res.Files); !slices.Equal(got, tt.want) {
				t.Errorf("files %q, want %q", got, tt.want)
			}
			if !hasNote(res.Notes, tt.mountAt, NoteOtherMount) {
				t.Errorf("notes %+v", res.Notes)
			}
		})
	}
}

func TestScanPermissionDenied(t *testing.T) {
	base := asnobody.PublicTempDir(t, "scan-perm-")
	root := filepath.Join(base, "repo")
	write(t, root, ".river/memory/ok/a.json", `{"timestamp":"2021-01-01T00:00:00Z"}`, epoch)
	write(t, root, ".river/memory/private.json", `{"timestamp":"2021-01-01T00:00:00Z"}`, epoch)
	write(t, root, ".river/memory/secret/s.json", "{}", epoch)
	write(t, root, ".river/memory/noexec/n.json", "{}", epoch)
	write(t, root, ".river/memory/noread/r.json", "{}", epoch)
	for p, mode := range map[string]os.FileMode{
		".river/memory/private.json": 0o600,
		".river/memory/secret":       0o700, // neither list nor enter
		".river/memory/noexec":       0o744, // list, but not stat entries
		".river/memory/noread":       0o711, // enter, but not list
	} {
		if err := os.Chmod(filepath.Join(root, p), mode); err != nil {
			t.Fatal(err)
		}
	}
	res := runAsNobody(t, base, root)
	wantErrs := []errKey{
		{Op: fserr.OpStat, Path: ".river/memory/noexec/n.json", Errno: unix.EACCES},
		{Op: fserr.OpOpenDir, Path: ".river/memory/noread", Errno: unix.EACCES},
		{Op: fserr.OpOpenDir, Path: ".river/memory/secret", Errno: unix.EACCES},
	}
	if !slices.Equal(res.Errors, wantErrs) {
		t.Errorf("errors:\n got %+v\nwant %+v", res.Errors, wantErrs)
	}
	if got, want := paths(res.Files), []string{".river/memory/ok/a.json", ".river/memory/private.json"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if f, _ := find(res.Files, ".river/memory/ok/a.json"); f.TimestampSource != SourceMetadata {
		t.Errorf("readable JSON not read: %+v", f)
	}
	if f, _ := find(res.Files, ".river/memory/private.json"); f.TimestampSource != SourceMtime || f.Timestamp != epoch.Unix() {
		t.Errorf("unreadable JSON should fall back to mtime: %+v", f)
	}
	if want := (nobodyNote{Path: ".river/memory/private.json", Kind: NoteMetadataUnusable, Reason: ReasonOpen, Errno: unix.EACCES}); !slices.Contains(res.Notes, want) {
		t.Errorf("notes %+v", res.Notes)
	}
}
