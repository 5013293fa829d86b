//go:build linux

package scan

import (
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// Depth and descriptors. The walker needs a directory's descriptor to
// open its next subdirectory, so a plain depth-first walk holds one
// descriptor per level and a tree deeper than the descriptor limit would
// fail with EMFILE. Instead the walker holds at most budget descriptors
// below the scope directory: pushing a frame beyond that closes the
// shallowest open one, and a closed directory that still has
// subdirectories to visit is reopened when the walk returns to it.
//
// Reopening goes down, never up: ".." of a directory that was moved
// during the scan may lead anywhere, even out of the root. The walker
// starts from the scope directory (whose descriptor it always holds) and
// opens each level by its name with O_NOFOLLOW|O_DIRECTORY, checking that
// every level is still the directory it listed: same device, inode and
// mount id. A directory moved, replaced or mounted over in the meantime is
// an Error with cause fserr.ErrChanged (at the level that changed), and
// the subdirectories not yet visited below it are not listed, so the
// inventory is reported incomplete rather than silently wrong.
//
// Cost: a frame is closed only after budget deeper levels were opened, so
// every reopen (at most depth opens) follows at least budget new
// directories: O(dirs·depth/budget) extra opens in the worst case, none
// for trees shallower than budget.

// maxBudget bounds the descriptors a scan holds; the budget is a quarter
// of the soft descriptor limit, at least minBudget.
const (
	maxBudget = 256
	minBudget = 4
)

// reopenHook, when set (by tests only), runs before each reopen.
var reopenHook func()

// dirID is what a reopened directory must still be.
type dirID struct{ dev, ino, mnt uint64 }

func idOf(stx *unix.Statx_t) dirID {
	return dirID{dev: devOf(stx), ino: stx.Ino, mnt: mntOf(stx)}
}

// descriptorBudget derives the budget from RLIMIT_NOFILE.
func descriptorBudget() int {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return minBudget
	}
	return int(max(minBudget, min(maxBudget, lim.Cur/4)))
}

// evict closes the shallowest open frames below the scope directory
// until at most budget are open.
func (w *walker) evict() {
	for len(w.stack)-w.lowOpen > w.budget {
		w.stack[w.lowOpen].close()
		w.lowOpen++
	}
}

// reopen reopens the top frame, whose ancestors below the scope directory
// are all closed, from the scope directory down. On failure it records
// one Error at the level that failed, gives up the pending subdirectories
// of that level and all below it, and returns false.
func (w *walker) reopen() bool {
	t := len(w.stack) - 1
	w.reopens++
	if reopenHook != nil {
		reopenHook()
	}
	cur := w.stack[0].fd
	for i := 1; i <= t; i++ {
		f := &w.stack[i]
		flags := openPathFlags
		if i == t {
			flags = openDirFlags
		}
		fd, err := openatZ(cur, &w.names[f.nameOff], flags)
		if i > 1 {
			unix.Close(cur)
		}
		if err == nil {
			var stx unix.Statx_t
			if err = fstatx(fd, &stx); err == nil && idOf(&stx) != f.id {
				err = fserr.ErrChanged
			}
			if err != nil {
				unix.Close(fd)
			}
		}
		if err != nil {
			w.fail(fserr.OpOpenDir, string(w.path[:f.pathLen]), err)
			for j := i; j <= t; j++ { // everything pending below the changed level
				w.stack[j].next = w.stack[j].end
			}
			return false
		}
		cur = fd
	}
	w.stack[t].fd = cur
	w.lowOpen = t
	return true
}
