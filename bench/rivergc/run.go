package main

import (
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
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	if out != nil {
		cmd.Stdout = out
	} else {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return 0, 0, err
		}
		defer null.Close()
		cmd.Stdout = null
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", filepath.Base(argv[0]), err)
	}
	wall := time.Since(start).Seconds()
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return wall, float64(ru.Maxrss) * 1024, nil
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
