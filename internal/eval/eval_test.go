package eval

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/pipeline"
)

// TestFixtures runs the harness over the committed fixtures; -update
// rewrites their expectations (refused for a non-deterministic judge).
func TestFixtures(t *testing.T) {
	rep, err := Run("../../fixtures", Production, Config{Update: *update})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed < 25 {
		t.Errorf("only %d cases passed; the harness promises at least 25", rep.Passed)
	}
	for _, c := range rep.Cases {
		t.Run(c.Name, func(t *testing.T) {
			for _, f := range c.Failures {
				t.Errorf("%s: %s", f.Check, f.Message)
			}
		})
	}
}

// writeCase creates a one-case fixture directory from an existing case.
func writeCase(t *testing.T, from string, edit func(name string, data []byte) []byte) string {
	t.Helper()
	dir := t.TempDir()
	caseDir := filepath.Join(dir, "the-case")
	if err := os.Mkdir(caseDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{InputFile, ExpectedText, ExpectedJSON} {
		data, err := os.ReadFile(filepath.Join("../../fixtures", from, name))
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			data = edit(name, data)
		}
		if err := os.WriteFile(filepath.Join(caseDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestHarnessCatchesBrokenJudges proves each check can fail, with a
// message that says what broke.
func TestHarnessCatchesBrokenJudges(t *testing.T) {
	orderDependent := func(input []byte, opts pipeline.Options) ([]byte, error) {
		out, err := Production(input, opts)
		if opts.JSON {
			return out, err
		}
		// Leaks input order: names the first inventory path in the text.
		i := bytes.Index(input, []byte(`"path"`))
		return append(out, fmt.Sprintf("(debug):1: first %s\n", input[i:i+40])...), err
	}
	removesGuarded := func(input []byte, opts pipeline.Options) ([]byte, error) {
		out, err := Production(input, opts)
		return bytes.Replace(out, []byte(`"removed":[`),
			[]byte(`"removed":[{"path":".river/memory/index.json","sizeBytes":1,"reason":"age"},`), 1), err
	}
	inventsWarning := func(input []byte, opts pipeline.Options) ([]byte, error) {
		out, err := Production(input, opts)
		return bytes.Replace(out, []byte(`"warnings":[`),
			[]byte(`"warnings":[{"kind":"general-advice","severity":"major","message":"clean up more"},`), 1), err
	}
	wrongExpectation := func(name string, data []byte) []byte {
		if name == ExpectedText {
			return bytes.Replace(data, []byte("mtimeAge=200日"), []byte("mtimeAge=201日"), 1)
		}
		return data
	}
	for _, tc := range []struct {
		name  string
		judge Judge
		edit  func(string, []byte) []byte
		check string
		want  string
	}{
		{"wrong-expectation", Production, wrongExpectation, ExpectedText, "+.river/memory/conversations/b.json:0: [severity=minor] reason=age, sizeBytes=100, mtimeAge=200日"},
		{"order-dependent-judge", orderDependent, nil, "determinism", "permutation"},
		{"removes-hard-guarded-path", removesGuarded, nil, "invariant", `removed ".river/memory/index.json" is hard-guarded`},
		{"warning-outside-closed-list", inventsWarning, nil, "invariant", `warning kind "general-advice" is not in the closed list`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeCase(t, "seed-good-index-json-hard-guarded", tc.edit)
			rep, err := Run(dir, tc.judge, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Failed != 1 || rep.Passed != 0 {
				t.Fatalf("want the case to fail, got %d passed %d failed", rep.Passed, rep.Failed)
			}
			found := false
			for _, f := range rep.Cases[0].Failures {
				if f.Check == tc.check && strings.Contains(f.Message, tc.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s failure mentioning %q in %+v", tc.check, tc.want, rep.Cases[0].Failures)
			}
			var text bytes.Buffer
			if err := rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(text.String(), "\n0 passed, 1 failed\n") || !strings.HasPrefix(text.String(), "FAIL the-case") {
				t.Errorf("report text:\n%s", text.String())
			}
		})
	}
}

// TestUpdateRefusedForBrokenJudge: a judge failing invariants cannot bless
// its own output.
func TestUpdateRefusedForBrokenJudge(t *testing.T) {
	dir := writeCase(t, "seed-good-index-json-hard-guarded", nil)
	before, _ := os.ReadFile(filepath.Join(dir, "the-case", ExpectedJSON))
	broken := func(input []byte, opts pipeline.Options) ([]byte, error) {
		out, err := Production(input, opts)
		return bytes.Replace(out, []byte(`"removed":[`), []byte(`"removed":[{"path":".river/memory/index.json","sizeBytes":1,"reason":"age"},`), 1), err
	}
	rep, err := Run(dir, broken, Config{Update: true})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "the-case", ExpectedJSON))
	if rep.Failed != 1 || !bytes.Equal(before, after) {
		t.Errorf("update was not refused: failed=%d, file changed=%v", rep.Failed, !bytes.Equal(before, after))
	}
}

// TestUpdateWritesMissingExpectations: a new case gets its files.
func TestUpdateWritesMissingExpectations(t *testing.T) {
	dir := writeCase(t, "count-tie-broken-by-path", nil)
	os.Remove(filepath.Join(dir, "the-case", ExpectedText))
	rep, err := Run(dir, Production, Config{Update: true})
	if err != nil || rep.Passed != 1 {
		t.Fatalf("update run: %v %+v", err, rep)
	}
	want, _ := os.ReadFile(filepath.Join("../../fixtures/count-tie-broken-by-path", ExpectedText))
	got, _ := os.ReadFile(filepath.Join(dir, "the-case", ExpectedText))
	if !bytes.Equal(want, got) {
		t.Errorf("rewritten expectation differs:\n%s", got)
	}
}
