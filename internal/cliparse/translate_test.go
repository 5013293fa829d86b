package cliparse

import (
	"errors"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

type grammar struct {
	RetentionDays int      `name:"retention-days"`
	Scope         []string `sep:"none"`
	Lang          string   `enum:"ja,en" default:"ja"`
	Force         bool
}

func parseErr(t *testing.T, args ...string) error {
	t.Helper()
	var g grammar
	_, done, err := Parse(&g, args, kong.Name("x"), kong.Writers(new(strings.Builder), new(strings.Builder)))
	if done || err == nil {
		t.Fatalf("%q: no error", args)
	}
	return Translate(err)
}

func TestTranslate(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		cause error
		want  string
	}{
		{[]string{"--bogus"}, ErrUnknownFlag, "unknown flag --bogus"},
		{[]string{"--forc"}, ErrUnknownFlag, "unknown flag --forc; did you mean --force?"},
		{[]string{"--retention-days"}, ErrMissingValue, "--retention-days needs a value; write --retention-days=VALUE"},
		{[]string{"--retention-days", "-1"}, ErrMissingValue, "--retention-days needs a value; a value starting with '-' must be attached: --retention-days=-1"},
		{[]string{"--retention-days", "x"}, ErrBadValue, `--retention-days: "x" is not a whole number`},
		{[]string{"--lang", "fr"}, ErrBadValue, `--lang: "fr" is not one of ja, en`},
	} {
		err := parseErr(t, tc.args...)
		if !errors.Is(err, tc.cause) {
			t.Errorf("%q: %v is not %v", tc.args, err, tc.cause)
		}
		if err.Error() != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.args, err, tc.want)
		}
		for _, internal := range []string{"EOL", "short flag", "64 bit"} {
			if strings.Contains(err.Error(), internal) {
				t.Errorf("%q: parser internals in %q", tc.args, err)
			}
		}
	}
}

func TestTranslateLeavesOthersAlone(t *testing.T) {
	err := parseErr(t, "stray")
	if err.Error() != "unexpected argument stray" {
		t.Errorf("got %q", err)
	}
	if Translate(nil) != nil {
		t.Error("Translate(nil) != nil")
	}
}

func TestListHint(t *testing.T) {
	if err := ListHint("--scope", "memory"); err != nil {
		t.Errorf("plain value refused: %v", err)
	}
	err := ListHint("--scope", "memory,evals")
	if !errors.Is(err, ErrList) {
		t.Fatalf("got %v", err)
	}
	if want := `--scope: "memory,evals" holds a comma; repeat the flag for each value: --scope memory --scope evals`; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

// TestTranslateHintKinds: every reworded hint also says its form and
// values, so a command can word it in its own language (river-gc's
// --lang ja, SPEC B5).
func TestTranslateHintKinds(t *testing.T) {
	for _, tc := range []struct {
		args []string
		kind string
		hint []string
	}{
		{[]string{"--forc"}, HintDidYouMean, []string{"--force"}},
		{[]string{"--retention-days"}, HintWrite, []string{"--retention-days=VALUE"}},
		{[]string{"--retention-days", "-1"}, HintAttach, []string{"--retention-days=-1"}},
		{[]string{"--retention-days", "x"}, HintNotWhole, []string{`"x"`}},
		{[]string{"--lang", "fr"}, HintNotOneOf, []string{`"fr"`, "ja, en"}},
	} {
		var e *Error
		if !errors.As(parseErr(t, tc.args...), &e) {
			t.Fatalf("%q: not an *Error", tc.args)
		}
		if e.HintKind != tc.kind || strings.Join(e.HintArgs, "|") != strings.Join(tc.hint, "|") {
			t.Errorf("%q: hint %s %q, want %s %q", tc.args, e.HintKind, e.HintArgs, tc.kind, tc.hint)
		}
	}
}
