// Package eval is the evaluation harness of the skill: it runs fixture
// cases in-process and checks exact output bytes, determinism under input
// permutations, and the invariants of seed 001's 評価指標 section.
//
// It judges through a Judge function so its own tests can hand it broken
// judges and prove that each kind of breakage is caught. It never rewrites
// an expectation unless asked to, and never for a judge that fails a
// determinism or invariant check.
package eval

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/plangate-gc/plangate-gc/internal/pipeline"
	"github.com/plangate-gc/plangate-gc/render"
)

// Input and expectation file names of a case directory.
const (
	InputFile    = "input.json"
	ExpectedText = "expected.txt"
	ExpectedJSON = "expected.json"
	ExpectedEN   = "expected.en.txt"
)

// output is one rendering a case can pin: which file, produced how.
type output struct {
	file     string
	opts     pipeline.Options
	optional bool // only checked when the file exists
}

var outputs = []output{
	{file: ExpectedText, opts: pipeline.Options{Lang: render.Japanese}},
	{file: ExpectedJSON, opts: pipeline.Options{JSON: true, Lang: render.Japanese}},
	{file: ExpectedEN, opts: pipeline.Options{Lang: render.English}, optional: true},
}

// Case is one fixture directory.
type Case struct {
	Name  string
	Dir   string
	Input []byte
}

// Load returns the cases under dir (every directory holding input.json),
// sorted by name, keeping those whose name matches run (nil: all).
func Load(dir string, run *regexp.Regexp) ([]Case, error) {
	var cases []Case
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != InputFile {
			return nil
		}
		caseDir := filepath.Dir(path)
		name, err := filepath.Rel(dir, caseDir)
		if err != nil {
			return err
		}
		name = filepath.ToSlash(name)
		if run != nil && !run.MatchString(name) {
			return nil
		}
		input, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		cases = append(cases, Case{Name: name, Dir: caseDir, Input: input})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("loading cases from %s: %w", dir, err)
	}
	if len(cases) == 0 {
		return nil, errors.New("no cases found in " + dir)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases, nil
}
