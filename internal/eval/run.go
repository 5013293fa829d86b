package eval

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/rogpeppe/go-internal/diff"
)

// Config tunes a harness run.
type Config struct {
	// Run selects cases by name; nil runs all.
	Run *regexp.Regexp
	// Update rewrites the expectation files from the judge's output, but
	// only for cases that pass the determinism and invariant checks.
	Update bool
	// Permutations is how many seeded shuffles of each input are judged;
	// never fewer than 8.
	Permutations int
}

// Failure is one broken check of a case.
type Failure struct {
	Check   string `json:"check"` // an expectation file, "determinism" or "invariant"
	Message string `json:"message"`
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	Name     string        `json:"name"`
	OK       bool          `json:"ok"`
	Elapsed  time.Duration `json:"-"`
	Millis   float64       `json:"elapsedMs"`
	Updated  []string      `json:"updated,omitempty"`
	Failures []Failure     `json:"failures"`
}

// Report is the outcome of a harness run.
type Report struct {
	Cases  []CaseResult `json:"cases"`
	Passed int          `json:"passed"`
	Failed int          `json:"failed"`
}

// Run evaluates every case under dir with judge.
func Run(dir string, judge Judge, cfg Config) (Report, error) {
	cases, err := Load(dir, cfg.Run)
	if err != nil {
		return Report{}, err
	}
	if cfg.Permutations < 8 {
		cfg.Permutations = 8
	}
	var rep Report
	for _, c := range cases {
		start := time.Now()
		res := evaluate(c, judge, cfg)
		res.Elapsed = time.Since(start)
		res.Millis = float64(res.Elapsed.Microseconds()) / 1000
		res.OK = len(res.Failures) == 0
		if res.OK {
			rep.Passed++
		} else {
			rep.Failed++
		}
		rep.Cases = append(rep.Cases, res)
	}
	return rep, nil
}

// evaluate runs every check of one case.
func evaluate(c Case, judge Judge, cfg Config) CaseResult {
	res := CaseResult{Name: c.Name, Failures: []Failure{}}
	fail := func(check, format string, args ...any) {
		res.Failures = append(res.Failures, Failure{Check: check, Message: fmt.Sprintf(format, args...)})
	}
	got := map[string][]byte{}
	for _, o := range outputs {
		out, err := judge(c.Input, o.opts)
		if err != nil {
			fail(o.file, "judge failed: %v", err)
			return res
		}
		got[o.file] = out
		again, err := judge(c.Input, o.opts)
		if err != nil || !bytes.Equal(out, again) {
			fail("determinism", "%s: two runs on the same input differ", o.file)
		}
	}
	jsonOut := got[ExpectedJSON]
	for _, msg := range checkInvariants(c.Input, jsonOut) {
		fail("invariant", "%s", msg)
	}
	judged := judgedDocuments(jsonOut)
	for seed := 1; seed <= cfg.Permutations; seed++ {
		shuffled := permute(c.Input, judged, uint64(seed))
		for _, o := range outputs {
			out, err := judge(shuffled, o.opts)
			if err != nil || !bytes.Equal(out, got[o.file]) {
				fail("determinism", "%s: permutation %d of paths/hardGuards changes the output:\n%s",
					o.file, seed, diff.Diff("original", got[o.file], fmt.Sprintf("permutation-%d", seed), out))
				break
			}
		}
	}
	trusted := len(res.Failures) == 0
	for _, o := range outputs {
		path := filepath.Join(c.Dir, o.file)
		want, err := os.ReadFile(path)
		exists := err == nil
		if cfg.Update && trusted && (exists || !o.optional) {
			if !exists || !bytes.Equal(want, got[o.file]) {
				if err := os.WriteFile(path, got[o.file], 0o644); err != nil {
					fail(o.file, "cannot update: %v", err)
				}
				res.Updated = append(res.Updated, o.file)
			}
			continue
		}
		switch {
		case !exists && o.optional:
		case !exists:
			fail(o.file, "missing expectation file %s (write it with --update after review)", path)
		case !bytes.Equal(want, got[o.file]):
			fail(o.file, "output differs from %s:\n%s", o.file, diff.Diff("want/"+o.file, want, "got/"+o.file, got[o.file]))
		}
	}
	if cfg.Update && !trusted {
		fail("update", "refused to update: the judge fails determinism or invariant checks")
	}
	return res
}

// judgedDocuments reports, per document, whether it passed the gate.
func judgedDocuments(jsonOut []byte) []bool {
	vs, err := decodeVerdicts(jsonOut)
	if err != nil {
		return nil
	}
	judged := make([]bool, len(vs))
	for i, v := range vs {
		judged[i] = v.Status != "no_review"
	}
	return judged
}
