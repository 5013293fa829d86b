package gitignore

import (
	"math/bits"
	"strings"
	"sync"
)

// wordPool holds state sets for automata too large for the stack buffer.
var wordPool = sync.Pool{New: func() any { return new([]uint64) }}

// finish splits the tokens into head, mid and tail and prepares mid's
// automaton.
func (g *glob) finish() {
	fixed := func(i int) bool {
		t := &g.toks[i]
		return !t.loop && !t.fork && !(i >= 2 && g.toks[i-2].fork) // not the optional '/' of "**/"
	}
	for g.head < len(g.toks) && fixed(g.head) {
		g.head++
	}
	for g.head+g.tail < len(g.toks) && fixed(len(g.toks)-1-g.tail) {
		g.tail++
	}
	g.mid = g.toks[g.head : len(g.toks)-g.tail]
	var run, best []byte
	for s := range g.mid {
		c, ok := g.mid[s].single()
		if ok && !(s >= 2 && g.mid[s-2].fork) {
			run = append(run, c)
			if len(run) > len(best) {
				best = append(best[:0], run...)
			}
		} else {
			run = run[:0]
		}
	}
	g.need = string(best)
	g.eps = make([]uint64, (len(g.mid)+1+63)/64)
	for s, t := range g.mid {
		if t.loop || t.fork {
			g.eps[s>>6] |= 1 << (s & 63)
		}
	}
}

// single returns the one byte t consumes, if it is a one-byte token whose
// set has exactly one member.
func (t *token) single() (byte, bool) {
	if t.loop || t.fork {
		return 0, false
	}
	n := 0
	for _, w := range t.set {
		n += bits.OnesCount64(w)
	}
	if n != 1 {
		return 0, false
	}
	for i, w := range t.set {
		if w != 0 {
			return byte(i<<6 | bits.TrailingZeros64(w)), true
		}
	}
	return 0, false
}

// match reports whether the whole of text matches g.
func (g *glob) match(text string) bool {
	if g.never || len(text) < g.min {
		return false
	}
	for i := 0; i < g.head; i++ {
		if !g.toks[i].set.has(text[i]) {
			return false
		}
	}
	end := len(text) - g.tail
	for i := 0; i < g.tail; i++ {
		if !g.toks[len(g.toks)-g.tail+i].set.has(text[end+i]) {
			return false
		}
	}
	text = text[g.head:end]
	if len(g.need) > 1 && !strings.Contains(text, g.need) {
		return false
	}
	switch {
	case len(g.mid) == 0:
		return text == ""
	case len(g.mid) < 64:
		return g.run64(text)
	default:
		return g.run(text)
	}
}

// run64 is run for an automaton whose states fit in one word.
func (g *glob) run64(text string) bool {
	accept := uint64(1) << len(g.mid)
	cur := g.close64(1)
	for i := 0; i < len(text); i++ {
		c := text[i]
		var next uint64
		for x := cur &^ accept; x != 0; x &= x - 1 {
			s := bits.TrailingZeros64(x)
			if t := &g.mid[s]; t.set.has(c) {
				if t.loop {
					next |= 1 << s
				} else {
					next |= 2 << s
				}
			}
		}
		if next == 0 {
			return false
		}
		cur = g.close64(next)
	}
	return cur&accept != 0
}

// close64 is close for one word.
func (g *glob) close64(x uint64) uint64 {
	eps := g.eps[0]
	for e := x & eps; e != 0; e &= e - 1 {
		s := bits.TrailingZeros64(e)
		add := uint64(2) << s
		if g.mid[s].fork {
			add |= 8 << s
		}
		e |= add &^ x & eps // later states reached here may move on too
		x |= add
	}
	return x
}

// run simulates mid's automaton over text, one set of live states per
// byte; state len(mid) accepts.
func (g *glob) run(text string) bool {
	n := len(g.mid) + 1
	words := (n + 63) / 64
	var small [8]uint64
	var buf []uint64
	if 2*words <= len(small) {
		buf = small[:2*words]
	} else {
		pooled := wordPool.Get().(*[]uint64)
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
				s := w<<6 | bits.TrailingZeros64(word)
				word &= word - 1
				if s == n-1 || !g.mid[s].set.has(c) {
					continue
				}
				if !g.mid[s].loop {
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
				if !g.mid[s].fork {
					break
				}
			}
		}
	}
}
