//go:build linux

package riverreview

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// readersChild is one long-lived Node process running testdata/diff's
// readers.mjs over upstream's installed tree: requests go to its stdin,
// one answer per line comes back.
type readersChild struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	used   int
}

// childCases is how many cases one child answers before it is replaced:
// every reading imports compare-eval-ledger.mjs anew (~40 KB kept).
const childCases = 400

func startReaders(script []string, upstreamDir string) (*readersChild, error) {
	c := &readersChild{cmd: exec.Command("node", append(script, upstreamDir)...)}
	c.cmd.Dir = upstreamDir
	c.cmd.Env = append(os.Environ(), "NO_COLOR=1", "SIM_NOW=2025-01-01T00:00:00Z")
	c.cmd.Stderr = &c.stderr
	in, err := c.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting node: %w", err)
	}
	c.in, c.out = in, bufio.NewReaderSize(out, 1<<20)
	return c, nil
}

// ask sends one request and decodes its answer into v.
func (c *readersChild) ask(req, v any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("node readers: %v\n%s", err, c.stderr.String())
	}
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("node readers died: %v\n%s", err, c.stderr.String())
	}
	return json.Unmarshal(line, v)
}

// stop ends the child and waits for it.
func (c *readersChild) stop() {
	c.in.Close()
	c.cmd.Wait()
}

// verdict is what one case came to.
type verdict struct {
	Problems []string `json:"problems"`
	// gcTime and readTime are the case's wall time in river-gc and in
	// upstream's readers.
	gcTime, readTime time.Duration
	Stats            struct {
		MemoryRemoved   int `json:"memoryRemoved"`
		MemoryRemovable int `json:"memoryRemovable"`
		LedgerRemoved   int `json:"ledgerRemoved"`
	} `json:"stats"`
}

// gcResult is the part of river-gc --json a case reads.
type gcResult struct {
	Removed []struct {
		Path string `json:"path"`
	} `json:"removed"`
	Errors []json.RawMessage `json:"errors"`
}

// runCase writes c's stores under root, asks upstream's readers, runs
// river-gc --force, asks again and returns the broken promises.
func runCase(child *readersChild, bin, root string, c diffCase) (verdict, error) {
	var v verdict
	if err := os.RemoveAll(root); err != nil {
		return v, err
	}
	for _, f := range []struct {
		path string
		data []byte
	}{{".river/memory/index.json", c.Index}, {"artifacts/evals/results.jsonl", c.Ledger}} {
		p := filepath.Join(root, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return v, err
		}
		if f.data != nil {
			if err := os.WriteFile(p, f.data, 0o644); err != nil {
				return v, err
			}
		}
	}
	var ok struct{ OK bool }
	t0 := time.Now()
	if err := child.ask(map[string]any{"op": "before", "root": root, "now": c.Now, "tz": c.TZ, "retentionDays": c.RetentionDays}, &ok); err != nil {
		return v, err
	}
	t1 := time.Now()
	cmd := exec.Command(bin, "--root", root, "--scope", "memory-entries", "--scope", "eval-ledger", "--force", "--json",
		"--quiet", "--lang", "en", "--now", c.Now, "--retention-days", fmt.Sprint(c.RetentionDays))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	t2 := time.Now()
	var res gcResult
	jsonErr := json.Unmarshal(stdout.Bytes(), &res)
	gc := map[string]int{"memory": 0, "ledger": 0}
	for _, r := range res.Removed {
		switch {
		case strings.HasPrefix(r.Path, ".river/memory/index.json#"):
			gc["memory"]++
		case strings.HasPrefix(r.Path, "artifacts/evals/results.jsonl#"):
			gc["ledger"]++
		}
	}
	if err := child.ask(map[string]any{"op": "after", "root": root, "gc": gc}, &v); err != nil {
		return v, err
	}
	child.used++
	v.gcTime, v.readTime = t2.Sub(t1), time.Since(t2)+t1.Sub(t0)
	switch {
	case code != 0 && code != 1 || err != nil && code < 0:
		v.Problems = append(v.Problems, fmt.Sprintf("river-gc exit %d (%v): %.300s", code, err, stderr.String()))
	case strings.Contains(stderr.String(), "panic:"):
		v.Problems = append(v.Problems, fmt.Sprintf("river-gc panicked: %.300s", stderr.String()))
	case jsonErr != nil:
		v.Problems = append(v.Problems, fmt.Sprintf("river-gc --json wrote no JSON result (%v)", jsonErr))
	case code == 1 && (len(res.Errors) == 0 || stderr.Len() == 0):
		v.Problems = append(v.Problems, fmt.Sprintf("river-gc exit 1 without a reason in errors[] and on stderr: %.300s", stderr.String()))
	}
	return v, nil
}

// diffRun is the outcome of a batch of cases.
type diffRun struct {
	mu                                       sync.Mutex
	cases, failed                            int
	memoryRemoved, memoryRemovable, ledgerRm int
	gcTime, readTime                         time.Duration
}

// runCases runs the cases of seeds first…first+n-1 (mutating base, when
// not nil, in some) on workers Node children
// and reports every failing case (the first 20 in full) with its seed and
// the directory its stores were written to for reproduction.
func runCases(t *testing.T, upstreamDir, bin string, base *diffBase, first uint64, n, workers int) *diffRun {
	t.Helper()
	run := &diffRun{}
	tmp := caseDir(t)
	script := []string{"--import", testdata(t, "fakeclock.mjs"), testdata(t, "diff/readers.mjs")}
	seeds := make(chan uint64)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			root := filepath.Join(tmp, fmt.Sprint("w", w))
			var child *readersChild
			defer func() {
				if child != nil {
					child.stop()
				}
			}()
			for seed := range seeds {
				if child == nil || child.used >= childCases {
					if child != nil {
						child.stop()
					}
					var err error
					if child, err = startReaders(script, upstreamDir); err != nil {
						t.Error(err)
						continue
					}
				}
				c := generate(seed, base)
				v, err := runCase(child, bin, root, c)
				if err != nil {
					t.Errorf("seed %d: %v", seed, err)
					child.stop()
					child = nil
					continue
				}
				run.record(t, c, v)
			}
		}()
	}
	for i := range n {
		seeds <- first + uint64(i)
	}
	close(seeds)
	wg.Wait()
	return run
}

// caseDir is where the cases' roots live: a directory on /dev/shm when
// that is a writable tmpfs (river-gc --force fsyncs every rewrite and its
// journal, which on a disk costs two thirds of a case), else t.TempDir().
func caseDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/dev/shm", "plangate-gc-diff-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// record counts a case and, when it failed, keeps its stores.
func (r *diffRun) record(t *testing.T, c diffCase, v verdict) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cases++
	r.memoryRemoved += v.Stats.MemoryRemoved
	r.memoryRemovable += v.Stats.MemoryRemovable
	r.ledgerRm += v.Stats.LedgerRemoved
	r.gcTime += v.gcTime
	r.readTime += v.readTime
	if r.cases%10000 == 0 {
		t.Logf("%d cases, %d failed so far", r.cases, r.failed+min(len(v.Problems), 1))
	}
	if len(v.Problems) == 0 {
		return
	}
	r.failed++
	dir, err := keepCase(c, v)
	if err != nil {
		dir = "(not kept: " + err.Error() + ")"
	}
	if r.failed <= 20 {
		t.Errorf("seed %d (now %s, TZ %s, --retention-days %d; traps %s): stores kept in %s\n  %s",
			c.Seed, c.Now, c.TZ, c.RetentionDays, strings.Join(c.Traps, ", "), dir, strings.Join(v.Problems, "\n  "))
	}
}
