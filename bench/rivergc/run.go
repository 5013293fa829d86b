package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// run runs argv with stdout to /dev/null (or to out) and returns its wall
// time in seconds and the peak RSS in bytes that wait4 reports (for a shell
// pipeline: the largest of the shell and the children it waited for).
func run(argv []string, out *os.File) (float64, float64, error) {
	wall, rss, _, err := runFor(0, argv, out)
	return wall, rss, err
}

// runFor is run with a time limit (0: none): a run that takes longer is
// killed, and killed reports it with the time and peak RSS until then.
func runFor(limit time.Duration, argv []string, out *os.File) (wall, rss float64, killed bool, err error) {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if limit > 0 {
		ctx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	if out != nil {
		cmd.Stdout = out
	} else {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return 0, 0, false, err
		}
		defer null.Close()
		cmd.Stdout = null
	}
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start).Seconds()
	if cmd.ProcessState != nil {
		rss = float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) * 1024
	}
	if ctx.Err() != nil {
		return wall, rss, true, nil
	}
	if err != nil {
		return 0, 0, false, fmt.Errorf("%s: %w", filepath.Base(argv[0]), err)
	}
	return wall, rss, false, nil
}

// removedCount runs river-gc once with --json and counts removed[].
func removedCount(argv []string) (int, error) {
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		return 0, fmt.Errorf("river-gc: %w", err)
	}
	var res struct {
		Removed []json.RawMessage `json:"removed"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return 0, fmt.Errorf("river-gc --json: %w", err)
	}
	return len(res.Removed), nil
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
