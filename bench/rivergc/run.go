package main

import (
	"context"
	"encoding/json"
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
)

// run runs argv with stdout to /dev/null (or to out) and returns its wall
// time in seconds, its peak RSS in bytes (for a shell pipeline: the
// largest of the shell and the children it waited for) and the CPU time
// (user + system seconds, children included) it used.
//
// The peak RSS comes from GNU time (/usr/bin/time -f %M), not from our own
// wait4: Go starts children with CLONE_VM|CLONE_VFORK, so the child's
// ru_maxrss starts at this harness's own high-water mark when it execs
// (this harness decodes river-gc's 1M-file output once and would report
// its own 700 MB for a 10 MB find). time(1) forks, so the measured
// program's mark starts from time's 2 MB.
func run(argv []string, out *os.File) (wall, rss, cpu float64, err error) {
	wall, rss, cpu, _, err = runFor(0, argv, out)
	return wall, rss, cpu, err
}

// runFor is run with a time limit (0: none): a run that takes longer is
// killed, and killed reports it with the time and peak RSS until then.
func runFor(limit time.Duration, argv []string, out *os.File) (wall, rss, cpu float64, killed bool, err error) {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if limit > 0 {
		ctx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	rssFile, err := os.CreateTemp("", "rivergc-rss")
	if err != nil {
		return 0, 0, 0, false, err
	}
	rssFile.Close()
	defer os.Remove(rssFile.Name())
	cmd := exec.CommandContext(ctx, "/usr/bin/time", append([]string{"-f", "%U %S %M", "-o", rssFile.Name(), "--"}, argv...)...)
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
	cmd.Stderr = os.Stderr
	if out != nil {
		cmd.Stdout = out
	} else {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return 0, 0, 0, false, err
		}
		defer null.Close()
		cmd.Stdout = null
	}
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start).Seconds()
	if data, rerr := os.ReadFile(rssFile.Name()); rerr == nil {
		f := strings.Fields(string(data)) // "Command terminated by signal 9" precedes the numbers
		if len(f) >= 3 {
			user, _ := strconv.ParseFloat(f[len(f)-3], 64)
			sys, _ := strconv.ParseFloat(f[len(f)-2], 64)
			kb, _ := strconv.ParseFloat(f[len(f)-1], 64)
			rss, cpu = kb*1024, user+sys
		}
	}
	if ctx.Err() != nil {
		return wall, rss, cpu, true, nil
	}
	if err != nil {
		return 0, 0, 0, false, fmt.Errorf("%s: %w", filepath.Base(argv[0]), err)
	}
	return wall, rss, cpu, false, nil
}

// removedCount runs river-gc once with --json and counts removed[],
// decoding the entries one at a time to keep this harness small.
func removedCount(argv []string) (int, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	n, derr := countRemoved(json.NewDecoder(pipe))
	io.Copy(io.Discard, pipe) // the rest of the document, so river-gc can finish
	if err := cmd.Wait(); err != nil {
		return 0, fmt.Errorf("river-gc: %w", err)
	}
	return n, derr
}

// countRemoved walks the top-level object and counts the elements of the
// "removed" array.
func countRemoved(dec *json.Decoder) (int, error) {
	if _, err := dec.Token(); err != nil { // {
		return 0, err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0, err
		}
		if key != "removed" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return 0, err
			}
			continue
		}
		if _, err := dec.Token(); err != nil { // [
			return 0, err
		}
		n := 0
		for dec.More() {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return 0, err
			}
			n++
		}
		return n, nil
	}
	return 0, fmt.Errorf("river-gc --json: no removed[]")
}

// countFiles counts the regular files under root.
func countFiles(root string) int {
	n := 0
	filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
