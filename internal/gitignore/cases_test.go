package gitignore

// matchCase is one oracle row: the patterns of a root .gitignore (in order),
// one file path, and whether git check-ignore reports the path as ignored.
// want was confirmed against git 2.39; git remains the authority, and
// TestMatchAgainstGit re-checks every row whenever git is installed.
type matchCase struct {
	name     string
	patterns []string
	path     string
	want     bool
}

// p is shorthand for a pattern list.
func p(patterns ...string) []string { return patterns }

// matchCases is kept in a file of its own (plain data, no imports) so the
// library comparison of docs/decisions/skill.md (70) can reuse it verbatim.
var matchCases = []matchCase{
	// Anchoring: no slash matches the basename at any depth; a leading or
	// middle slash anchors to the root; parents count.
	{"basename/root", p("foo"), "foo", true},
	{"basename/deep", p("foo"), "a/b/foo", true},
	{"basename/parent-dir", p("foo"), "a/foo/b", true},
	{"basename/not-substring", p("foo"), "afoo", false},
	{"leading-slash/root", p("/foo"), "foo", true},
	{"leading-slash/not-deep", p("/foo"), "a/foo", false},
	{"leading-slash/parent", p("/foo"), "foo/x", true},
	{"middle-slash/exact", p("a/b"), "a/b", true},
	{"middle-slash/anchored", p("a/b"), "x/a/b", false},
	{"middle-slash/parent", p("a/b"), "a/b/c", true},
	{"middle-slash/star", p("a/*.c"), "a/x.c", true},
	{"middle-slash/star-not-deeper", p("a/*.c"), "a/b/x.c", false},
	{"double-slash/never", p("a//b"), "a/b", false},
	{"two-leading-slashes/never", p("//x"), "x", false},
	{"escaped-slash/anchors", p(`a\/b`), "a/b", true},
	{"git-doc/doc-txt-not-nested", p("doc/*.txt"), "doc/server/arch.txt", false},
	{"star-slash/one-level", p("*/b"), "a/b", true},
	{"star-slash/not-two-levels", p("*/b"), "x/a/b", false},

	// Directory-only patterns never match the file itself, only parents.
	{"dir-only/file-itself", p("foo/"), "foo", false},
	{"dir-only/parent", p("foo/"), "foo/x", true},
	{"dir-only/deep-parent", p("foo/"), "a/foo/x", true},
	{"dir-only/anchored-not-deep", p("/foo/"), "a/foo/x", false},
	{"dir-only/middle-file", p("a/b/"), "a/b", false},
	{"dir-only/middle-parent", p("a/b/"), "a/b/c", true},
	{"dir-only/star", p("*/"), "x", false},
	{"dir-only/star-parent", p("*/"), "d/x", true},
	{"dir-only/root-slash-never", p("/"), "x/y", false},

	// "**" in all positions, and "**" that is just '*'.
	{"starstar/leading-root", p("**/foo"), "foo", true},
	{"starstar/leading-deep", p("**/foo"), "a/b/foo", true},
	{"starstar/leading-two", p("**/foo/bar"), "x/y/foo/bar", true},
	{"starstar/leading-two-miss", p("**/foo/bar"), "foo/x/bar", false},
	{"starstar/trailing", p("foo/**"), "foo/a/b", true},
	{"starstar/trailing-not-self", p("foo/**"), "foo", false},
	{"starstar/middle-zero", p("a/**/b"), "a/b", true},
	{"starstar/middle-many", p("a/**/b"), "a/x/y/b", true},
	{"starstar/middle-anchored", p("a/**/b"), "z/a/x/b", false},
	{"starstar/alone", p("**"), "a/b", true},
	{"starstar/leading-slash", p("/**/b"), "x/y/b", true},
	{"starstar/dir-only", p("**/"), "a/b", true},
	{"starstar/dir-only-root-file", p("**/"), "b", false},
	{"starstar/trailing-dir-only", p("a/**/"), "a/x/y", true},
	{"starstar/trailing-dir-only-file", p("a/**/"), "a/y", false},
	{"starstar/both-ends", p("**/b/**"), "x/b/c", true},
	{"starstar/repeated", p("x/**/**/y"), "x/y", true},
	{"starstar/inside-name-basename", p("a**b"), "axyb", true},
	{"starstar/inside-name-no-slash", p("a**b"), "ax/yb", false},
	{"starstar/after-literal-prefix-quirk", p("foo**/bar"), "foox/y/bar", true},
	{"starstar/after-slash-is-star", p("foo/**bar"), "foo/x/ybar", false},
	{"starstar/after-slash-is-star-hit", p("foo/**bar"), "foo/xbar", true},

	// '*' and '?' never cross '/'.
	{"star/any-basename", p("*.c"), "a/b/x.c", true},
	{"star/everything", p("*"), "a/x", true},
	{"star/leading-dot", p("*"), ".hidden", true},
	{"star/parent-prefix", p("a*"), "a/x", true},
	{"star/anchored-parent", p("/a*"), "ab/x", true},
	{"star/anchored-miss", p("/a*"), "b/a", false},
	{"star/anchored-child-dir", p("a/*"), "a/b/c", true},
	{"question/one", p("?.c"), "a.c", true},
	{"question/two", p("?.c"), "ab.c", false},
	{"question/no-slash", p("a?b"), "a/b", false},
	{"question/anchored", p("a/?"), "a/b", true},

	// Negation, order, and no re-include under an excluded parent.
	{"negate/reinclude", p("*.log", "!keep.log"), "keep.log", false},
	{"negate/others", p("*.log", "!keep.log"), "a/other.log", true},
	{"negate/order-matters", p("!keep.log", "*.log"), "keep.log", true},
	{"negate/under-excluded-dir", p("logs/", "!logs/keep.log"), "logs/keep.log", true},
	{"negate/under-contents", p("logs/*", "!logs/keep.log"), "logs/keep.log", false},
	{"negate/under-starstar", p("logs/**", "!logs/keep.log"), "logs/keep.log", false},
	{"negate/under-starstar-subdir", p("logs/**", "!logs/sub/keep.log"), "logs/sub/keep.log", true},
	{"negate/root-except-src", p("/*", "!/src"), "src/main.go", false},
	{"negate/root-except-src-other", p("/*", "!/src"), "other/x", true},
	{"negate/dir-reincluded", p("build", "!build/"), "build/x", false},
	{"negate/dir-rule-not-for-file", p("build", "!build/"), "build", true},
	{"negate/all-but-dirs-and-go", p("*", "!*/", "!*.go"), "a/b.go", false},
	{"negate/all-but-dirs-and-go-txt", p("*", "!*/", "!*.go"), "a/b.txt", true},
	{"negate/excluded-parent-wins", p("a/b", "!a/b/c"), "a/b/c", true},
	{"negate/dir-then-undo", p("a/", "!a/"), "a/x", false},
	{"negate/anchored-exception", p("*.c", "!/x.c"), "x.c", false},
	{"negate/anchored-exception-deep", p("*.c", "!/x.c"), "d/x.c", true},
	{"negate/vendor-min", p("*.min.js", "!vendor/*.min.js"), "vendor/x.min.js", false},
	{"negate/vendor-min-deep", p("*.min.js", "!vendor/*.min.js"), "vendor/s/x.min.js", true},
	{"negate/bang-alone", p("!"), "x", false},
	{"negate/bang-alone-after", p("*", "!"), "x", true},
	{"negate/escaped-bang", p(`\!important`), "!important", true},

	// Bracket expressions.
	{"class/set", p("[abc].txt"), "b.txt", true},
	{"class/negated-bang", p("[!abc].txt"), "b.txt", false},
	{"class/negated-bang-hit", p("[!abc].txt"), "d.txt", true},
	{"class/negated-caret", p("[^abc].txt"), "d.txt", true},
	{"class/range", p("[a-c]x"), "bx", true},
	{"class/range-miss", p("[a-c]x"), "dx", false},
	{"class/reversed-range", p("[z-a]"), "m", false},
	{"class/bracket-first", p("[]]x"), "]x", true},
	{"class/negated-bracket-first", p("[!]]x"), "ax", true},
	{"class/negated-bracket-first-miss", p("[!]]x"), "]x", false},
	{"class/trailing-dash", p("[a-]"), "-", true},
	{"class/escaped-bracket", p(`[\]]`), "]", true},
	{"class/no-slash", p("a[/]b"), "a/b", false},
	{"class/digit", p("[[:digit:]]*"), "7up", true},
	{"class/digit-miss", p("[[:digit:]]*"), "up", false},
	{"class/upper", p("[[:upper:]]*"), "Readme", true},
	{"class/upper-miss", p("[[:upper:]]*"), "readme", false},
	{"class/space-tab", p("x[[:space:]]y"), "x\ty", true},
	{"class/space-not-vt", p("x[[:space:]]"), "x\v", false},
	{"class/space-cr", p("x[[:space:]]"), "x\r", true},
	{"class/unknown-name", p("[[:foo:]]"), "f", false},
	{"class/posix-then-dash", p("[[:alpha:]-]"), "-", true},
	{"class/not-posix", p("[[:alpha]"), "h", true},
	{"class/graph-is-ascii", p("[[:graph:]][[:graph:]]"), "é", false},
	{"class/cntrl-del", p("[[:cntrl:]]"), "\x7f", true},
	{"class/multibyte-member", p("[é]"), "é", false},

	// Escapes, spaces, CR.
	{"escape/hash", p(`\#foo`), "#foo", true},
	{"escape/star", p(`a\*b`), "a*b", true},
	{"escape/star-literal", p(`a\*b`), "axb", false},
	{"escape/question", p(`a\?`), "a?", true},
	{"escape/plain-letter", p(`\a`), "a", true},
	{"escape/dir-slash-never", p(`a\/`), `a\/x`, false},
	{"space/trailing-trimmed", p("foo  "), "foo", true},
	{"space/escaped-kept", p(`foo\ `), "foo ", true},
	{"space/escaped-not-trimmed", p(`foo\ `), "foo", false},
	{"space/inner-escaped", p(`foo \ `), "foo  ", true},
	{"space/escaped-backslash-then-space", p(`a\\ `), `a\`, true},
	{"space/leading-kept", p(" foo"), " foo", true},
	{"space/leading-kept-miss", p(" foo"), "foo", false},
	{"space/tab-not-trimmed", p("foo\t"), "foo\t", true},
	{"space/tab-not-trimmed-miss", p("foo\t"), "foo", false},
	{"cr/trailing-stripped", p("foo\r"), "foo", true},
	{"cr/before-space-kept", p("foo\r "), "foo\r", true},
	{"cr/before-space-miss", p("foo\r "), "foo", false},

	// Unicode: patterns are NFC-normalised; matching is byte-wise.
	{"unicode/nfd-pattern-nfc-path", p("cafe\u0301"), "caf\u00e9", true},
	{"unicode/nfc-pattern", p("caf\u00e9"), "x/caf\u00e9", true},
	{"unicode/nfd-in-dir-pattern", p("re\u0301sume\u0301/"), "r\u00e9sum\u00e9/cv.pdf", true},
	{"unicode/question-is-one-byte", p("caf?"), "caf\u00e9", false},
	{"unicode/two-questions", p("caf??"), "caf\u00e9", true},
	{"unicode/star-suffix", p("*\u00e9"), "x/caf\u00e9", true},
	{"unicode/no-case-fold", p("\u00dc*"), "\u00fcber", false},

	// Dotfiles.
	{"dot/dir", p(".river/"), ".river/state.json", true},
	{"dot/star-dot", p(".*"), ".river/x", true},
	{"dot/star-dot-miss", p(".*"), "a.b", false},
	{"dot/ext-inside", p("*.json"), ".river/state.json", true},
	{"dot/anchored-sub", p("/.river/cache"), ".river/cache/x", true},
	{"dot/keep-exception", p(".river/*", "!.river/plan.json"), ".river/plan.json", false},

	// Case sensitivity.
	{"case/literal", p("README"), "readme", false},
	{"case/ext", p("*.GO"), "x.go", false},
	{"case/class", p("[A-Z]*"), "abc", false},

	// Corners found black-box with git check-ignore while re-implementing
	// the matcher from gitignore(5) (docs/decisions/skill.md, 68).
	{"quirk/starstar-before-quoted-slash", p(`**\/b`), "a/c/b", true},
	{"quirk/starstar-before-quoted-slash-no-zero-dir", p(`**\/b`), "b", false},
	{"quirk/mid-starstar-before-quoted-slash", p(`x/**\/b`), "x/a/b", true},
	{"quirk/mid-starstar-before-quoted-slash-not-zero", p(`x/**\/b`), "x/b", false},
	{"quirk/starstar-before-quoted-letter-is-star", p(`x/**\b`), "x/a/c/b", false},
	{"quirk/starstar-before-quoted-letter-hit", p(`x/**\b`), "x/cb", true},
	{"quirk/prefix-starstar-zero-dirs", p("a**/b"), "a/b", true},
	{"quirk/prefix-starstar-dirs", p("a**/b"), "ax/y/z/b", true},
	{"quirk/star-cannot-cross-slash", p("a/*b*c"), "a/xb/c", false},
	{"quirk/star-then-starstar", p("*/**/c"), "a/b/c", true},
	{"quirk/star-then-starstar-anchored", p("*/**/c"), "c", false},
	{"quirk/triple-star-dirs", p("/***/b"), "x/y/b", true},
	{"quirk/triple-star-no-partial", p("/***/b"), "ab", false},
	{"quirk/starstar-double-slash-never", p("**//**"), "a/b", false},
	{"class/colon-bracket-not-a-class", p("x[[:]"), "x:", true},
	{"class/colon-bracket-not-a-class-bracket", p("x[[:]"), "x[", true},
	{"class/empty-name-unknown", p("x[[::]]"), "x:", false},
	{"class/unknown-name-after-member", p("x[a[:nope:]]"), "xa", false},
	{"class/dash-after-posix-is-member", p("x[[:alpha:]-z]"), "x-", true},
	{"class/dash-after-range-is-member", p("x[a-b-d]"), "x-", true},
	{"class/dash-after-range-not-range", p("x[a-b-d]"), "xc", false},
	{"class/range-from-first-bracket", p("x[]-a]"), "x^", true},
	{"class/range-from-dash", p("x[--0]"), "x.", true},
	{"class/range-to-bracket-literal", p("x[a-[:alpha:]]"), "xb", false},
	{"class/range-to-escaped", p(`x[Z-\]]`), `x\`, true},
	{"class/escaped-dash-no-range", p(`x[a\-c]`), "xb", false},
	{"class/escaped-dash-member", p(`x[a\-c]`), "x-", true},
	{"class/colon-unit-not-closed-at-first-bracket", p("x[[:a]b:]]"), "x:b:]]", true},
	{"class/range-never-slash", p("a[--0]b"), "a/b", false},
	{"class/negated-never-slash", p("a[!x]b"), "a/b", false},
	{"class/space-no-ff", p("x[[:space:]]"), "x\f", false},
	{"class/space-lf", p("x[[:space:]]"), "x\n", true},
	{"class/punct-underscore", p("x[[:punct:]]"), "x_", true},
	{"class/print-space", p("x[[:print:]]"), "x ", true},
	{"class/alpha-not-high-byte", p("[[:alpha:]]?"), "é", false},

	// Hostile shapes (git's exponential backtracking) in instances small
	// enough that git itself answers quickly; the matcher memoises them.
	{"hostile/starstar-near-miss", p("**/**/**/a*b*c*"), "aab/aab/aab/aab/aab/aab/aab/ab", false},
	{"hostile/starstar-hit", p("**/**/**/a*b*c*"), "aab/aab/aab/aab/aab/aab/aab/abc", true},
	{"hostile/stars-near-miss", p("*a*a*a*a*a*b"), "aaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
	{"hostile/starstar-dirs", p("a/**/a/**/a/**/b/"), "a/a/a/a/a/a/a/a/a/a/a/c", false},
	{"hostile/starstar-dirs-hit", p("a/**/a/**/a/**/b/"), "a/a/a/a/a/a/b/c", true},
	{"hostile/repeated-lines", p("**/**/**/a*b*c*", "!x", "**/**/**/a*b*c*", "!aab"), "aab/x", false},
}
