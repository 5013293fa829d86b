// Package modfiles keys go test's result cache on the module's files.
//
// go test reuses a package's last result when its test binary and the
// files and environment it read are unchanged. A test that builds one of
// the module's commands with `go build` and runs it reads none of that
// command's sources itself, so after an edit to them the cache would
// answer with the old result. Record reads every file of the module once
// (go test records each file a test opens and hashes it when it caches
// the result), so any change to the module reruns the test.
package modfiles

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

var (
	once sync.Once
	err  error
)

// Record opens and reads every file of the module the working directory
// is in (`.git` aside), once per process. Call it from a test, not from
// TestMain: go test records only what tests read.
func Record() error {
	once.Do(func() { err = record() })
	return err
}

func record() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case !d.Type().IsRegular():
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(io.Discard, f)
		return err
	})
}

// moduleRoot is the nearest directory upward holding a go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("modfiles: no go.mod above the working directory")
		}
		dir = parent
	}
}
