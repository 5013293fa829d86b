//go:build linux

package gitindex

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"golang.org/x/sys/unix"
)

// maxSmallFile bounds how much of a ".git" file, "commondir" or config
// this package reads; real ones are a few hundred bytes.
const maxSmallFile = 1 << 20

// Tracked returns the files tracked in the index of the git work tree
// that encloses rootfd (an O_PATH|O_DIRECTORY descriptor of river gc's
// root), relative to the root. Entries outside the root are dropped.
//
// The work tree is found by walking upward from rootfd with
// openat("..", O_PATH|O_DIRECTORY|O_NOFOLLOW), looking in each directory
// for a ".git" directory or a ".git" file ("gitdir: <path>", as in
// linked worktrees and submodules). The walk stops at a mount boundary
// (st_dev changes) or at "/"; finding nothing is not an error and yields
// an empty set. The root's path inside the work tree is found without
// /proc: at each step up, the parent is listed and the entry whose
// (st_dev, st_ino) equals the child's is its name. A directory renamed
// during the walk makes that lookup fail (an error) or, renamed after it
// was named, leaves the prefix as it was at that instant. A directory on
// the way that cannot be listed (mode 0711) is an error only if a
// repository is found above it; with none anywhere, the set is empty.
//
// A missing index file (a fresh "git init") yields an empty set. An index
// that cannot be read or decoded completely is an *Error whose cause is
// ErrCorrupt, ErrUnsupported or an errno; no partial set is returned.
func Tracked(rootfd int) (*Set, error) {
	wt, err := findWorkTree(rootfd)
	if err != nil {
		return nil, err
	}
	if wt == nil {
		return &Set{}, nil
	}
	defer unix.Close(wt.gitdir)
	hashSize, err := objectFormat(wt)
	if err != nil {
		return nil, err
	}
	indexPath := path.Join(wt.gitdirName, "index")
	data, err := readAt(wt.gitdir, "index", -1)
	if errors.Is(err, unix.ENOENT) {
		return &Set{}, nil
	}
	if err != nil {
		return nil, &Error{Op: OpReadIndex, Path: indexPath, Err: err}
	}
	ix, err := parseIndex(data, hashSize)
	if err != nil {
		return nil, &Error{Op: OpParseIndex, Path: indexPath, Err: err}
	}
	if ix.link != nil {
		if ix, err = readShared(wt, ix, hashSize); err != nil {
			return nil, err
		}
	}
	return newSet(ix, wt.prefix), nil
}

// readShared completes a split index ix with the shared index its link
// names, which must exist and carry that name as its checksum.
func readShared(wt *workTree, ix *index, hashSize int) (*index, error) {
	name := ix.link.sharedName()
	sharedPath := path.Join(wt.gitdirName, name)
	data, err := readAt(wt.gitdir, name, -1)
	if err != nil {
		return nil, &Error{Op: OpReadIndex, Path: sharedPath, Err: err}
	}
	if len(data) < hashSize || !bytes.Equal(data[len(data)-hashSize:], ix.link.shared) {
		return nil, &Error{Op: OpParseIndex, Path: sharedPath, Err: fmt.Errorf("%w: shared index checksum is not its name", ErrCorrupt)}
	}
	shared, err := parseIndex(data, hashSize)
	if err != nil {
		return nil, &Error{Op: OpParseIndex, Path: sharedPath, Err: err}
	}
	if ix, err = mergeShared(ix, shared); err != nil {
		return nil, &Error{Op: OpParseIndex, Path: path.Join(wt.gitdirName, "index"), Err: err}
	}
	return ix, nil
}

// workTree is what findWorkTree learns about the enclosing repository.
type workTree struct {
	gitdir     int    // O_PATH descriptor of the git directory
	gitdirName string // its path relative to the root, for messages
	prefix     string // the root's path below the work tree top ("" at the top)
}

// findWorkTree walks up from rootfd; it returns nil, nil when no .git
// entry is found before a mount boundary or "/".
func findWorkTree(rootfd int) (*workTree, error) {
	var names []string // names of the directories walked up, root first
	var unnamed error  // why a directory walked up could not be named
	up := ""           // "../" repeated, the current directory relative to the root
	cur := rootfd
	defer func() {
		if cur != rootfd {
			unix.Close(cur)
		}
	}()
	var st unix.Stat_t
	if err := eintr.Retry(func() error { return unix.Fstat(cur, &st) }); err != nil {
		return nil, &Error{Op: OpFindWorkTree, Path: ".", Err: err}
	}
	for {
		gitdir, name, err := openGitDir(cur, up)
		if err != nil {
			return nil, err
		}
		if gitdir >= 0 && unnamed != nil {
			// A repository above a directory that could not be listed:
			// its index exists, but which of its paths are below the
			// root cannot be told, so nothing can be trusted.
			unix.Close(gitdir)
			return nil, unnamed
		}
		if gitdir >= 0 {
			for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
				names[i], names[j] = names[j], names[i]
			}
			return &workTree{gitdir: gitdir, gitdirName: name, prefix: strings.Join(names, "/")}, nil
		}
		parent, _, pst, top, err := ident.Parent(cur)
		if err != nil {
			return nil, &Error{Op: OpFindWorkTree, Path: up + "..", Err: err}
		}
		if top {
			return nil, nil // "/": its ".." is itself
		}
		if pst.Dev != st.Dev {
			unix.Close(parent) // a mount boundary
			return nil, nil
		}
		// A parent that cannot be listed (mode 0711, as shared homes
		// are) matters only if a repository turns up above it: the walk
		// goes on and fails then, so a root with no repository anywhere
		// is an ordinary run.
		if unnamed == nil {
			child, err := childName(parent, st)
			if err != nil {
				unnamed = &Error{Op: OpFindWorkTree, Path: up + "..", Err: err}
			}
			names = append(names, child)
		}
		if cur != rootfd {
			unix.Close(cur)
		}
		cur, st, up = parent, pst, up+"../"
	}
}

// childName returns the name under which the directory child (by
// st_dev, st_ino) appears in dirfd.
func childName(dirfd int, child unix.Stat_t) (string, error) {
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return "", err
	}
	f := os.NewFile(uintptr(fd), "..")
	defer f.Close()
	for {
		names, err := f.Readdirnames(256)
		for _, n := range names {
			var st unix.Stat_t
			err := eintr.Retry(func() error { return unix.Fstatat(dirfd, n, &st, unix.AT_SYMLINK_NOFOLLOW) })
			if err == nil && st.Dev == child.Dev && st.Ino == child.Ino {
				return n, nil
			}
		}
		if err == io.EOF {
			return "", fmt.Errorf("directory moved during the walk: %w", unix.ENOENT)
		}
		if err != nil {
			return "", err
		}
	}
}

// openGitDir looks for ".git" in dirfd. It returns the git directory's
// descriptor and root-relative name, or -1 when there is none (or it is
// not a git directory: git itself then keeps walking up).
func openGitDir(dirfd int, up string) (int, string, error) {
	var st unix.Stat_t
	err := eintr.Retry(func() error { return unix.Fstatat(dirfd, ".git", &st, 0) })
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return -1, "", nil
	}
	if err != nil {
		return -1, "", &Error{Op: OpFindWorkTree, Path: up + ".git", Err: err}
	}
	target, name := ".git", up+".git"
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
	case unix.S_IFREG:
		data, err := readAt(dirfd, ".git", maxSmallFile)
		if err != nil {
			return -1, "", &Error{Op: OpReadGitFile, Path: name, Err: err}
		}
		line, _, _ := bytes.Cut(data, []byte("\n"))
		p, ok := strings.CutPrefix(strings.TrimRight(string(line), "\r"), "gitdir: ")
		if !ok || p == "" {
			return -1, "", &Error{Op: OpReadGitFile, Path: name, Err: fmt.Errorf("%w: no \"gitdir: <path>\" line", ErrCorrupt)}
		}
		target = p
		if path.IsAbs(p) {
			name = p
		} else {
			name = path.Join(up, p)
		}
	default:
		return -1, "", nil
	}
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, target, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return -1, "", &Error{Op: OpFindWorkTree, Path: name, Err: err}
	}
	// Like git, accept a git directory only if it has a HEAD.
	if err := eintr.Retry(func() error { return unix.Fstatat(fd, "HEAD", &st, 0) }); err != nil {
		unix.Close(fd)
		if target == ".git" {
			return -1, "", nil
		}
		return -1, "", &Error{Op: OpFindWorkTree, Path: name, Err: fmt.Errorf("%w: not a git directory (no HEAD)", ErrCorrupt)}
	}
	return fd, name, nil
}

// objectFormat returns the object id size of the repository: 32 when its
// config says extensions.objectFormat = sha256, else 20. A linked
// worktree's config lives in the common directory named by "commondir".
func objectFormat(wt *workTree) (int, error) {
	cfgDir, cfgName := wt.gitdir, wt.gitdirName
	common, err := readAt(wt.gitdir, "commondir", maxSmallFile)
	switch {
	case err == nil:
		p := strings.TrimRight(string(common), "\r\n")
		fd, err := eintr.Value(func() (int, error) {
			return unix.Openat(wt.gitdir, p, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		})
		if err != nil {
			return 0, &Error{Op: OpReadConfig, Path: path.Join(wt.gitdirName, p), Err: err}
		}
		defer unix.Close(fd)
		cfgDir, cfgName = fd, path.Join(wt.gitdirName, p)
	case !errors.Is(err, unix.ENOENT):
		return 0, &Error{Op: OpReadConfig, Path: path.Join(wt.gitdirName, "commondir"), Err: err}
	}
	cfg, err := readAt(cfgDir, "config", maxSmallFile)
	if errors.Is(err, unix.ENOENT) {
		return sha1Size, nil
	}
	if err != nil {
		return 0, &Error{Op: OpReadConfig, Path: path.Join(cfgName, "config"), Err: err}
	}
	switch f := configValue(cfg, "extensions", "objectformat"); f {
	case "", "sha1":
		return sha1Size, nil
	case "sha256":
		return sha256Size, nil
	default:
		return 0, &Error{Op: OpReadConfig, Path: path.Join(cfgName, "config"), Err: fmt.Errorf("%w: object format %q", ErrUnsupported, f)}
	}
}

// configValue returns the last value of section.key in a git config file,
// lower-cased. It understands the plain "[section]" / "key = value" lines
// git writes for extensions; includes and subsections are not followed.
func configValue(cfg []byte, section, key string) string {
	var in bool
	var val string
	sc := bufio.NewScanner(bytes.NewReader(cfg))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			name, _, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			in = strings.EqualFold(strings.TrimSpace(name), section)
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if in && ok && strings.EqualFold(strings.TrimSpace(k), key) {
			v, _, _ = strings.Cut(v, "#")
			v, _, _ = strings.Cut(v, ";")
			val = strings.ToLower(strings.Trim(strings.TrimSpace(v), "\""))
		}
	}
	return val
}

// maxIndexBytes bounds the index files this package reads (1 GiB; the
// index of a 3.5-million-file work tree is about a third of that). A
// larger one, or one that grows beyond it while being read, is
// ErrTooLarge: never a reason to allocate what st_size claims.
const maxIndexBytes = 1 << 30

// readChunk is the first read's size; later reads double it, so memory
// follows the bytes actually read, never st_size.
const readChunk = 64 << 10

// readAt reads the regular file name in dirfd, at most limit bytes
// (limit < 0: maxIndexBytes; a larger file is ErrTooLarge). It opens with
// O_NONBLOCK|O_NOFOLLOW, so that a FIFO or a device cannot make it wait
// and a symlink is not followed, and refuses anything but a regular file
// (ErrNotRegular) before reading. The buffer grows with what read()
// returns, not with st_size, so a sparse or lying size costs nothing.
func readAt(dirfd int, name string, limit int64) ([]byte, error) {
	if limit < 0 {
		limit = maxIndexBytes
	}
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_NOFOLLOW, 0)
	})
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("%w: a symbolic link", ErrNotRegular)
	}
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := eintr.Retry(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, ErrNotRegular
	}
	if st.Size > limit {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrTooLarge, st.Size, limit)
	}
	var data []byte
	for chunk := readChunk; ; chunk = min(chunk*2, 16<<20) {
		if int64(len(data)) > limit {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
		}
		data = slices.Grow(data, min(chunk, int(limit)+1-len(data)))
		n, err := eintr.Value(func() (int, error) { return unix.Read(fd, data[len(data):cap(data)]) })
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return data, nil
		}
		data = data[:len(data)+n]
	}
}
