package gitignore

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestValidate checks the SPEC A5 well-formedness rule, including the class
// corner cases where "closed" depends on the bracket grammar (class.go).
func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		code    Code // "" means well-formed
		offset  int
	}{
		{"plain", "foo", "", 0},
		{"class-empty", "[]", CodeUnterminatedClass, 0},
		{"class-bracket-member", "[]]", "", 0},
		{"class-negated-empty", "[!]", CodeUnterminatedClass, 0},
		{"class-negated-bracket-member", "[!]a]", "", 0},
		{"class-caret-empty", "[^]", CodeUnterminatedClass, 0},
		{"class-posix-unclosed", "[[:alpha:]", CodeUnterminatedClass, 0},
		{"class-posix-closed", "[[:alpha:]]", "", 0},
		{"class-posix-no-colon", "[[:alpha]", "", 0},
		{"class-posix-name-unclosed", "x[[:alpha", CodeUnterminatedClass, 1},
		{"class-unknown-name-closed", "[[:nope:]]", "", 0},
		{"class-open", "a[b", CodeUnterminatedClass, 1},
		{"class-escaped-close", `[\]`, CodeUnterminatedClass, 0},
		{"class-escaped-member", `[\]]`, "", 0},
		{"class-open-range", "[a-", CodeUnterminatedClass, 0},
		{"class-escaped-open", `\[`, "", 0},
		{"class-after-bang", "![x", CodeUnterminatedClass, 1},
		{"class-before-dir-slash", "x/[/", CodeUnterminatedClass, 2},
		{"class-second", "[a][", CodeUnterminatedClass, 3},
		{"backslash-lone", `a\`, CodeTrailingBackslash, 1},
		{"backslash-pair", `a\\`, "", 0},
		{"backslash-three", `a\\\`, CodeTrailingBackslash, 3},
		{"backslash-only", `\`, CodeTrailingBackslash, 0},
		{"backslash-before-cr", "a\\\r", CodeTrailingBackslash, 1},
		{"backslash-in-class-at-end", `[a\`, CodeTrailingBackslash, 2},
		{"backslash-before-dir-slash", `a\/`, "", 0},
		{"escaped-space", `\ `, "", 0},
		{"escaped-trailing-space", `a\ `, "", 0},
		{"escaped-hash", `\#x`, "", 0},
		{"hash", "#x", CodeComment, 0},
		{"hash-alone", "#", CodeComment, 0},
		{"hash-after-space", " #x", "", 0},
		{"hash-after-bang", "!#x", "", 0},
		{"spaces", "   ", CodeEmpty, 0},
		{"empty", "", CodeEmpty, 0},
		{"cr-only", "\r", CodeEmpty, 0},
		{"spaces-cr", "  \r", CodeEmpty, 0},
		{"tab-is-not-space", "\t", "", 0},
		{"bang-alone", "!", "", 0},
		{"slash-alone", "/", "", 0},
		{"nul", "x\x00", CodeNUL, 1},
		{"nul-beats-comment", "#\x00", CodeNUL, 1},
		{"newline-is-a-byte", "a\nb", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.pattern)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("Validate(%q) = %v, want nil", tc.pattern, err)
				}
				return
			}
			var pe *PatternError
			if !errors.As(err, &pe) {
				t.Fatalf("Validate(%q) = %v, want *PatternError %s", tc.pattern, err, tc.code)
			}
			if pe.Code != tc.code || pe.Offset != tc.offset || pe.Pattern != tc.pattern {
				t.Errorf("Validate(%q) = %+v, want code %s offset %d", tc.pattern, *pe, tc.code, tc.offset)
			}
			if !strings.Contains(pe.Error(), fmt.Sprintf("%q", tc.pattern)) {
				t.Errorf("Error() = %q does not name the pattern", pe.Error())
			}
		})
	}
}

// TestCompileError checks that Compile names the index and wraps the
// *PatternError, and that an empty list matches nothing.
func TestCompileError(t *testing.T) {
	_, err := Compile([]string{"ok", "*.go", "[x"})
	var pe *PatternError
	if !errors.As(err, &pe) || pe.Code != CodeUnterminatedClass || pe.Pattern != "[x" {
		t.Fatalf("Compile error = %v, want wrapped unterminated-class for %q", err, "[x")
	}
	if !strings.Contains(err.Error(), "pattern 2") {
		t.Errorf("Compile error %q does not name index 2", err)
	}
	for _, m := range []*Matcher{nil, {}, mustCompile(t)} {
		if m.Match("a/b") {
			t.Errorf("empty matcher %v matched", m)
		}
	}
}

func mustCompile(t *testing.T, patterns ...string) *Matcher {
	t.Helper()
	m, err := Compile(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
