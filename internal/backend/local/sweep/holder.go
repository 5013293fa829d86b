//go:build linux

package sweep

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Holder is the process that holds the lock Lock takes on a root, as the
// kernel reports it: its pid, when it started (epoch seconds, 0 when
// unknown) and the host it runs on (flock locks are local, so the host
// is this one).
type Holder struct {
	PID   int
	Start int64
	Host  string
}

// userHZ is the unit of /proc/<pid>/stat's start time: USER_HZ, which
// Linux fixes at 100 for every interface it exports to user space.
const userHZ = 100

// LockHolder finds who holds the lock on the root rootfd, read from
// /proc/locks (the flock whose device and inode are the root's) and
// /proc/<pid>/stat; ok is false when it cannot tell (no such line: the
// lock was just released, or /proc is not mounted, or the holder lives in
// another pid namespace). It only reads; it never takes the lock.
func LockHolder(rootfd int) (h Holder, ok bool) {
	var st unix.Stat_t
	if err := unix.Fstat(rootfd, &st); err != nil {
		return h, false
	}
	locks, err := os.ReadFile("/proc/locks")
	if err != nil {
		return h, false
	}
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(st.Dev), unix.Minor(st.Dev), st.Ino)
	sc := bufio.NewScanner(bytes.NewReader(locks))
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 9884 fe:00:10652081 0 EOF"; a
		// blocked waiter's line carries "->" and holds nothing.
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "FLOCK" || f[3] != "WRITE" || f[5] != want {
			continue
		}
		pid, err := strconv.Atoi(f[4])
		if err != nil || pid <= 0 {
			continue
		}
		h = Holder{PID: pid, Start: startTime(pid)}
		h.Host, _ = os.Hostname()
		return h, true
	}
	return h, false
}

// startTime is when process pid started, in epoch seconds: the boot
// time (/proc/stat's btime) plus the start time in /proc/<pid>/stat
// (field 22, in USER_HZ ticks since boot); 0 when either is unknown.
func startTime(pid int) int64 {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces and parentheses: the
	// fields after it start after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	rest := strings.Fields(string(stat[i+1:])) // field 3 onwards
	if len(rest) < 20 {
		return 0
	}
	ticks, err := strconv.ParseInt(rest[19], 10, 64)
	if err != nil {
		return 0
	}
	boot, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(boot), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			if b, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return b + ticks/userHZ
			}
		}
	}
	return 0
}
