package gitignore

import (
	"math/bits"
	"strings"
	"sync"
)

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
// no backtracking (decisions.md, 69).
type glob struct {
	toks  []token
	never bool     // the pattern names an unknown class: it matches nothing
	min   int      // bytes any match consumes at least
	eps   []uint64 // bit s: toks[s] is a loop or a fork
}

var (
	noSlash  = func() (s byteSet) { s.invert(); s[0] &^= 1 << '/'; return }()
	anyByte  = func() (s byteSet) { s.invert(); return }()
	wordPool = sync.Pool{New: func() any { return new([]uint64) }}
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
	g.eps = make([]uint64, (len(g.toks)+1+63)/64)
	for s, t := range g.toks {
		if t.loop || t.fork {
			g.eps[s>>6] |= 1 << (s & 63)
		}
	}
	return g
}

func (g *glob) lit(c byte) {
	var s byteSet
	s.add(c)
	g.toks = append(g.toks, token{set: s})
	g.min++
}

// match reports whether the whole of text matches g.
func (g *glob) match(text string) bool {
	if g.never || len(text) < g.min {
		return false
	}
	n := len(g.toks) + 1 // state len(toks) accepts
	words := (n + 63) / 64
	var small [8]uint64
	var buf []uint64
	var pooled *[]uint64
	if 2*words <= len(small) {
		buf = small[:2*words]
	} else {
		pooled = wordPool.Get().(*[]uint64)
		if cap(*pooled) < 2*words {
			*pooled = make([]uint64, 2*words)
		}
		buf = (*pooled)[:2*words]
		clear(buf)
		defer wordPool.Put(pooled)
	}
	cur, next := buf[:words], buf[words:]
	cur[0] = 1
	g.close(cur)
	for i := 0; i < len(text); i++ {
		c := text[i]
		clear(next)
		live := false
		for w, word := range cur {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				word &= word - 1
				s := w<<6 | b
				if s == n-1 {
					continue
				}
				t := &g.toks[s]
				if !t.set.has(c) {
					continue
				}
				if !t.loop {
					s++
				}
				next[s>>6] |= 1 << (s & 63)
				live = true
			}
		}
		if !live {
			return false
		}
		g.close(next)
		cur, next = next, cur
	}
	last := n - 1
	return cur[last>>6]&(1<<(last&63)) != 0
}

// close adds to states every state reachable without consuming a byte: a
// loop may stop, and a "**/" may match no directory. The moves only go
// forward, so one ascending pass over the live states with such moves
// suffices.
func (g *glob) close(states []uint64) {
	for w := range states {
		x := states[w] & g.eps[w]
		for x != 0 {
			s := w<<6 | bits.TrailingZeros64(x)
			x &= x - 1
			for _, to := range [2]int{s + 1, s + 3} {
				states[to>>6] |= 1 << (to & 63)
				if to>>6 == w {
					x |= g.eps[w] & (1 << (to & 63))
				}
				if !g.toks[s].fork {
					break
				}
			}
		}
	}
}
