package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
)

// run runs argv with stdout to /dev/null and returns its wall time in
// seconds, its peak RSS in bytes and its CPU seconds (bench/internal/measure).
func run(argv []string) (wall, rss, cpu float64, err error) {
	r, err := measure.Run(argv, measure.Options{})
	return r.Wall, r.RSS, r.CPU, err
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
