package gitignore

// The '*' loop of git's dowild(), split out so that the memoised run can
// remember its verdicts. The loop for a star whose rest of pattern starts at
// p, entered at text position t, tries the rest at t, t+1, ... (jumping to
// the next occurrence of the rest's first byte when that is a literal) and
// stops at the first verdict that is final. Its result depends only on
// (p, matchSlash, t), and every position the loop passes through without a
// final verdict has the same result as the position where it entered, which
// is what lets starMemo fill whole runs of its table at once.

// star runs the '*' loop of dowild for the rest of pattern at p and the text
// from t; matchSlash says whether the star may match '/'.
func (w *wmState) star(p, t int, matchSlash bool) int {
	if w.memo != nil {
		return w.starMemo(p, t, matchSlash)
	}
	pat, text := w.pat, w.text
	tch := at(text, t)
	for tch != 0 {
		if w.budget--; w.budget < 0 {
			w.over = true
			return wmAbortAll
		}
		// When a literal follows the '*', skip ahead to its next
		// occurrence (not past a '/' unless the star may match
		// slashes).
		if c := pat[p]; !isGlobSpecial(c) {
			for tch = at(text, t); tch != 0 && (matchSlash || tch != '/'); tch = at(text, t) {
				if tch == c {
					break
				}
				t++
			}
			if tch != c {
				return wmNoMatch
			}
		}
		if m := w.dowild(p, t); m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				return m
			}
		} else if !matchSlash && tch == '/' {
			return wmAbortToStarStar
		}
		t++
		tch = at(text, t)
	}
	return wmAbortAll
}

// starMemo is star with its verdicts remembered per entry position. Each
// table entry is written once, so all loops of one star cost O(len(text))
// steps together, plus the memoised dowild calls they make.
func (w *wmState) starMemo(p, t0 int, matchSlash bool) int {
	text := w.text
	n := w.memo.end
	if t0 >= n {
		return wmAbortAll
	}
	row := 2 * int(w.memo.row[p])
	if matchSlash {
		row++
	}
	width := w.memo.width
	loops := w.memo.loops[row*width : (row+1)*width]
	if v := loops[t0]; v != 0 {
		return int(v) - 3
	}
	c := w.pat[p]
	literal := !isGlobSpecial(c)
	r, end := wmAbortAll, n-1 // verdict, and last position it holds for
	for t := t0; ; {
		if t >= n {
			break
		}
		if t > t0 && loops[t] != 0 {
			r, end = int(loops[t])-3, t-1
			break
		}
		tch := text[t]
		if literal {
			known := false
			for t < n && (matchSlash || text[t] != '/') && text[t] != c {
				t++
				if t < n && loops[t] != 0 {
					known = true
					break
				}
			}
			if known {
				r, end = int(loops[t])-3, t-1
				break
			}
			if t >= n || text[t] != c {
				r, end = wmNoMatch, min(t, n-1)
				break
			}
			tch = c
		}
		if m := w.dowild(p, t); m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				r, end = m, t
				break
			}
		} else if !matchSlash && tch == '/' {
			r, end = wmAbortToStarStar, t
			break
		}
		t++
	}
	for i := t0; i <= end; i++ {
		loops[i] = int8(r + 3)
	}
	return r
}
