package gitignore

import "strings"

// token is one step of a compiled glob. A token either consumes one byte
// from set and moves on, or (loop) consumes any number of bytes from set
// and may move on without consuming, or (fork, with an empty set) consumes
// nothing and moves on either to the next token or past the two after it:
// the entry of "**/", which may match no directory at all.
type token struct {
	set  byteSet
	loop bool
	fork bool
}

// glob is a compiled wildcard pattern, matched against a whole text the way
// gitignore(5) describes: '*' is any run of bytes without '/', '?' one byte
// that is not '/', "[...]" one byte of a set that never holds '/', '\'
// quotes the next byte, and a run of two or more '*' is "**": with a '/'
// (or the pattern's start) before it and a '/' (or its end) after it, it
// matches across directories, "**/" also matching no directory at all
// (a quoted "\/" after the run also counts as the boundary, but without
// the zero-directory case); anywhere else it is a plain '*'.
//
// Matching simulates the automaton of the tokens over the text, one set
// of live states per byte, so its cost is O(len(tokens) × len(text)) with
// no backtracking (docs/decisions/skill.md, 69).
type glob struct {
	toks  []token
	never bool // the pattern names an unknown class: it matches nothing
	min   int  // bytes any match consumes at least
	// head and tail count the one-byte tokens before the first and after
	// the last token that can consume a varying number of bytes; they are
	// checked directly against both ends of the text, and the automaton
	// runs only on mid, the tokens between, over the text between.
	head, tail int
	mid        []token
	eps        []uint64 // bit s: mid[s] is a loop or a fork
	// need is the longest run of literal bytes in mid: a text without it
	// cannot match, and strings.Contains says so faster than the
	// automaton.
	need string
}

var (
	noSlash = func() (s byteSet) { s.invert(); s[0] &^= 1 << '/'; return }()
	anyByte = func() (s byteSet) { s.invert(); return }()
)

// compileGlob compiles pat, which Validate has accepted (so every '\' has a
// byte after it and every '[' is closed). pat's first byte counts as the
// pattern's start for "**".
func compileGlob(pat string) *glob {
	g := &glob{}
	for i := 0; i < len(pat); {
		c := pat[i]
		switch c {
		case '\\':
			if i+1 >= len(pat) {
				g.never = true
				return g
			}
			g.lit(pat[i+1])
			i += 2
		case '?':
			g.toks = append(g.toks, token{set: noSlash})
			g.min++
			i++
		case '[':
			set, end, res := parseClass(pat, i)
			if res != classOK {
				g.never = true
				return g
			}
			set[0] &^= 1 << '/'
			g.toks = append(g.toks, token{set: set})
			g.min++
			i = end
		case '*':
			j := i
			for j < len(pat) && pat[j] == '*' {
				j++
			}
			// git also takes a quoted '/' after the run as the
			// boundary (then without the zero-directory case).
			double := j-i >= 2 && (i == 0 || pat[i-1] == '/') &&
				(j == len(pat) || pat[j] == '/' || strings.HasPrefix(pat[j:], `\/`))
			if double && j < len(pat) && pat[j] == '\\' {
				g.toks = append(g.toks, token{set: anyByte, loop: true})
				i = j
				continue
			}
			switch {
			case double && j < len(pat): // "**/": any directories, or none
				g.toks = append(g.toks, token{fork: true}, token{set: anyByte, loop: true})
				g.lit('/')
				g.min-- // the '/' may be skipped
				j++
			case double: // trailing "**": everything
				g.toks = append(g.toks, token{set: anyByte, loop: true})
			default:
				g.toks = append(g.toks, token{set: noSlash, loop: true})
			}
			i = j
		default:
			g.lit(c)
			i++
		}
	}
	g.finish()
	return g
}

func (g *glob) lit(c byte) {
	var s byteSet
	s.add(c)
	g.toks = append(g.toks, token{set: s})
	g.min++
}
