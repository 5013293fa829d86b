// Package measure runs a benchmarked program under GNU time and
// summarises repeated runs: the one place the bench commands measure wall
// time, CPU time and peak RSS.
//
// The peak RSS comes from GNU time (/usr/bin/time -f %M), not from our own
// wait4: Go starts children with CLONE_VM|CLONE_VFORK, so a child's
// ru_maxrss starts at the harness's own high-water mark when it execs (a
// harness that decoded river-gc's 1M-file output once reported its own
// 700 MB for a 10 MB find). time(1) forks, so the measured program's mark
// starts from time's 2 MB.
package measure

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Options says where a run reads and writes and how long it may take.
type Options struct {
	Stdin  *os.File      // nil: no input
	Stdout *os.File      // nil: /dev/null
	Limit  time.Duration // 0: none; a longer run is killed
}

// Result is one run: wall time in seconds, peak RSS in bytes (for a shell
// pipeline: the largest of the shell and the children it waited for), CPU
// time (user + system seconds, children included), and whether it was
// killed at the limit (then the numbers are those until the kill).
type Result struct {
	Wall, RSS, CPU float64
	Killed         bool
}

// Run runs argv under GNU time.
func Run(argv []string, o Options) (Result, error) {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if o.Limit > 0 {
		ctx, cancel = context.WithTimeout(ctx, o.Limit)
	}
	defer cancel()
	stats, err := os.CreateTemp("", "measure")
	if err != nil {
		return Result{}, err
	}
	stats.Close()
	defer os.Remove(stats.Name())
	cmd := exec.CommandContext(ctx, "/usr/bin/time", append([]string{"-f", "%U %S %M", "-o", stats.Name(), "--"}, argv...)...)
	// On timeout, kill time's child (the measured program) by its id, so
	// that time still reports the peak RSS it reached.
	cmd.Cancel = func() error {
		kids, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid))
		for _, f := range strings.Fields(string(kids)) {
			if pid, err := strconv.Atoi(f); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		return nil
	}
	cmd.Stdin, cmd.Stderr = o.Stdin, os.Stderr
	if o.Stdout != nil {
		cmd.Stdout = o.Stdout
	} else {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return Result{}, err
		}
		defer null.Close()
		cmd.Stdout = null
	}
	start := time.Now()
	err = cmd.Run()
	var r Result
	r.Wall = time.Since(start).Seconds()
	if data, rerr := os.ReadFile(stats.Name()); rerr == nil {
		f := strings.Fields(string(data)) // "Command terminated by signal 9" precedes the numbers
		if len(f) >= 3 {
			user, _ := strconv.ParseFloat(f[len(f)-3], 64)
			sys, _ := strconv.ParseFloat(f[len(f)-2], 64)
			kb, _ := strconv.ParseFloat(f[len(f)-1], 64)
			r.RSS, r.CPU = kb*1024, user+sys
		}
	}
	if ctx.Err() != nil {
		r.Killed = true
		return r, nil
	}
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", filepath.Base(argv[0]), err)
	}
	return r, nil
}

// Median is the median of xs (the mean of the middle two for an even
// count); xs is not changed.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
