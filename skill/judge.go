package skill

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/prefault"
)

// Judge classifies every path of one document (SPEC A7) and returns the
// verdict. It fails only when the caller passes what the gate would have
// refused: an unknown scope or a malformed exclude pattern.
func Judge(in Input) (Result, error) {
	if !in.Scope.Valid() {
		return Result{}, fmt.Errorf("unknown scope %q", in.Scope)
	}
	excludes, err := gitignore.Compile(in.Excludes)
	if err != nil {
		return Result{}, fmt.Errorf("excludes: %w", err)
	}
	input := normaliseGuards(in.HardGuards)
	derived := input // river gc derives every guard it passes: one set, not two
	if !sameSlice(in.DerivedGuards, in.HardGuards) {
		derived = normaliseGuards(in.DerivedGuards)
	}
	j := judgement{
		in:       in,
		input:    input,
		derived:  derived,
		excludes: excludes.Session(),
		res:      Result{Status: StatusOK, Scope: in.Scope, Evaluated: true},
	}
	j.builtin = newGuards(in.Scope.SingleSources()...)
	invalid := retentionQuestions(in.Retention)
	if len(invalid) == 0 {
		j.pol = newPolicy(in.Retention, in.Now)
	} else {
		// No evaluation: a policy that removes nothing still classifies
		// steps 1–6, which the unreliable-mtime question needs.
		j.pol = keepAll(in.Now)
	}
	j.files()
	j.res.Removed = j.applyCountAndSize()
	j.finish()
	if len(invalid) > 0 {
		// The whole document is blocked: only the questions remain, the
		// retention ones first (SPEC A8 order).
		return Result{Status: StatusHandoff, Scope: in.Scope, Questions: append(invalid, j.res.Questions...)}, nil
	}
	return j.res, nil
}

// judgement carries the state of one Judge call.
type judgement struct {
	in       Input
	pol      policy
	input    guards // the caller's hardGuards, NFC, suffix-stripped
	derived  guards // the caller's derivedGuards: they quiet the overlap warnings
	builtin  guards // the scope's single source
	excludes *gitignore.Session
	res      Result

	// refs points into in.Paths (16 bytes an entry, one allocation,
	// nothing for the collector to scan): from the front the survivors,
	// the entries with a usable mtime that are not aged (count and size
	// apply), with what the count order needs; from the back the age
	// removals, in reverse path order. Each unique file is classified
	// once, as one or the other or neither, so the two never meet; no
	// growth series and no copy leaves garbage while judging (decision
	// 269).
	refs       []ageKey
	unwalked   int   // entries not yet classified, the current one included: refs' size when it is made
	survivors  int   // refs[:survivors]
	aged       int   // refs[len(refs)-aged:]
	ranked     int32 // unique in-scope files classified so far
	warmSum    byte  // what warm loaded, kept so that the loads stay
	guardExcl  []string
	guardAge   []string
	unguarded  []string
	missing    []string
	inconsist  []string
	duplicated []string
}

// sameSlice reports whether a and b are one slice (the same elements in
// the same memory): then their guard sets are one. An entry scope's
// guards can be a million names, and a set costs 90 bytes a name.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// normaliseGuards makes the set of the guards' prefixes (NFC, "/**" and
// "/" stripped), copying the list only when one of them changes.
func normaliseGuards(raw []string) guards {
	var prefixes []string
	for i, g := range raw {
		p := guardPrefix(norm.NFC.String(g))
		if prefixes == nil && p != g {
			prefixes = append(make([]string, 0, len(raw)), raw[:i]...)
		}
		if prefixes != nil {
			prefixes = append(prefixes, p)
		}
	}
	if prefixes == nil {
		prefixes = raw
	}
	return newGuards(prefixes...)
}

// files applies steps 1–3: drops directories and out-of-scope paths,
// resolves duplicates, and hands each unique in-scope file to classify in
// path order. One sort of the entries by path serves all three steps, and
// one walk of them in that order serves steps 1–9: each walk through the
// sorted indexes misses the cache on input that is not in path order.
func (j *judgement) files() {
	entries := j.in.Paths
	order := sortByPath(entries)
	for i, warmed := 0, 0; i < len(order); {
		if i >= warmed {
			warmed = j.warm(order, i)
		}
		j.unwalked = len(order) - i
		path := entries[order[i]].Path
		k := i + 1
		for k < len(order) && entries[order[k]].Path == path {
			k++
		}
		group := order[i:k]
		i = k
		// A child p+"/…" sorts after p, and every path between them has p
		// as a prefix: unless the next path does, there is no child.
		implied := strings.HasSuffix(path, "/") ||
			(k < len(order) && strings.HasPrefix(entries[order[k]].Path, path) && j.hasChild(order, path))
		files := 0
		for _, idx := range group {
			if implied || entries[idx].Dir {
				j.res.Counts.Directories++
			} else {
				files++
			}
		}
		if files == 0 {
			continue
		}
		nfc := norm.NFC.String(path)
		if !Canonical(path) || !j.in.Scope.InScope(nfc) {
			j.res.Counts.OutOfScope += files
			continue
		}
		if files > 1 {
			j.duplicate(group)
			continue
		}
		for _, idx := range group {
			if !entries[idx].Dir {
				j.classify(idx, nfc)
			}
		}
	}
}

// warmAhead is how many entries warm loads at once.
const warmAhead = 128

// warm loads the entries order[i:i+warmAhead] and both ends of their
// paths, and returns where it stopped. A tight loop of independent loads
// lets the processor wait for many cache misses at once; the walk that
// follows, which does a lot of work per entry, then finds them in the
// cache instead of waiting for each in turn (on a shuffled million
// entries the walk is mostly such waits).
func (j *judgement) warm(order []int32, i int) int {
	end := min(i+warmAhead, len(order))
	var sum byte
	for _, idx := range order[i:end] {
		if p := j.in.Paths[idx].Path; p != "" {
			sum += p[0] + p[len(p)-1]
		}
	}
	j.warmSum += sum
	return end
}

// hasChild reports whether another entry's path starts with p + "/";
// order holds the entry indexes sorted by path.
func (j *judgement) hasChild(order []int32, p string) bool {
	i := sort.Search(len(order), func(k int) bool { return !belowSlash(j.in.Paths[order[k]].Path, p) })
	if i == len(order) {
		return false
	}
	q := j.in.Paths[order[i]].Path
	return len(q) > len(p) && q[len(p)] == '/' && strings.HasPrefix(q, p)
}

// belowSlash reports whether q < p + "/" without building that string
// (this runs once per entry).
func belowSlash(q, p string) bool {
	n := min(len(q), len(p))
	if c := strings.Compare(q[:n], p[:n]); c != 0 {
		return c < 0
	}
	if len(q) < len(p) {
		return true // q is a proper prefix of p
	}
	if len(q) == len(p) {
		return true // q == p < p + "/"
	}
	return q[len(p)] < '/'
}

// duplicate keeps one copy of a repeated file path, unevaluated, with the
// largest size given.
func (j *judgement) duplicate(group []int32) {
	size := uint64(0)
	for _, idx := range group {
		if e := &j.in.Paths[idx]; !e.Dir {
			size = max(size, e.SizeBytes)
		}
	}
	j.res.Counts.Duplicates++
	j.keep(size)
	j.duplicated = append(j.duplicated, j.in.Paths[group[0]].Path)
}

func (j *judgement) keep(size uint64) {
	j.res.Counts.Keep++
	j.res.KeptBytes = j.res.KeptBytes.Add(size)
}

// classify applies steps 4–7 to a unique in-scope file (they come in path
// order) and keeps the rest for count and size.
func (j *judgement) classify(idx int32, nfc string) {
	e := &j.in.Paths[idx]
	ref := fileRef{idx: idx, rank: j.ranked}
	j.ranked++
	usable := e.MtimeKnown && e.Mtime > 0 && e.Mtime <= j.in.Now
	excluded := j.excludes.Match(nfc)
	if byInput := e.Guarded || j.input.cover(nfc); byInput || j.builtin.cover(nfc) {
		j.res.Counts.HardGuarded++
		j.keep(e.SizeBytes)
		// A guard the caller derived itself (river gc's single
		// sources) overlapping an exclude or the age policy is
		// expected, not a configuration to clean up.
		quiet := e.Guarded || j.derived.cover(nfc)
		if excluded && !quiet {
			j.guardExcl = append(j.guardExcl, e.Path)
		}
		if usable && !quiet && j.pol.aged(e.Mtime) {
			j.guardAge = append(j.guardAge, e.Path)
		}
		if !byInput {
			j.unguarded = append(j.unguarded, e.Path)
		}
		return
	}
	switch {
	case excluded:
		j.res.Counts.Excluded++
		j.keep(e.SizeBytes)
	case !e.MtimeKnown:
		j.res.Counts.MtimeMissing++
		j.missing = append(j.missing, e.Path)
		j.keep(e.SizeBytes)
	case !usable:
		j.res.Counts.MtimeInconsistent++
		j.inconsist = append(j.inconsist, e.Path)
		j.keep(e.SizeBytes)
	case j.pol.aged(e.Mtime):
		j.res.Counts.Remove++
		j.aged++
		j.makeRefs()
		j.refs[len(j.refs)-j.aged] = ageKey{fileRef: ref}
	default:
		j.makeRefs()
		j.refs[j.survivors] = ageKey{mtime: e.Mtime, fileRef: ref}
		j.survivors++
	}
}

// makeRefs makes refs when the first entry that age, count or size may
// remove comes: once, for it and every entry still to come, not for those
// guarded, excluded or unusable before it (an entry scope whose entries
// are all live needs none: 16 bytes an entry).
func (j *judgement) makeRefs() {
	if j.refs == nil {
		j.refs = make([]ageKey, j.unwalked)
	}
}

// fileRef is a unique in-scope file: its index in in.Paths and its rank
// in path order among those files.
type fileRef struct{ idx, rank int32 }

// applyCountAndSize orders the survivors newest first (mtime DESC, path
// DESC): past maxEntries they go for count; within it, once the running
// size exceeds the limit, for size. It returns those decisions merged with
// the age removals (also by path) into one list by path, built once: at a
// million entries an intermediate list would be tens of megabytes.
func (j *judgement) applyCountAndSize() []Decision {
	entries := j.in.Paths
	byAge, aged := j.refs[:j.survivors], j.refs[len(j.refs)-j.aged:]
	slices.Reverse(aged) // in path order
	j.refs = nil
	sortNewestFirst(byAge)
	// Every survivor from the first size removal (or from maxEntries) on
	// is removed: sizes holds the running sums from firstSize.
	var sizes []Bytes
	cut := len(byAge)
	var cum Bytes
	for i, k := range byAge {
		if int64(i) >= j.pol.maxEntries {
			cut = min(cut, i)
			break
		}
		size := entries[k.idx].SizeBytes
		cum = cum.Add(size)
		if !j.pol.exceeds(cum) && cut == len(byAge) {
			j.keep(size)
			continue
		}
		cut = min(cut, i)
		sizes = append(sizes, cum)
	}
	removed := byAge[cut:]
	j.res.Counts.Remove += len(removed)
	if len(removed) == 0 { // the age removals alone, in path order: no slots (4 bytes an entry)
		byPath := make([]Decision, 0, len(aged))
		prefault.Slice(byPath)
		for _, ref := range aged {
			byPath = append(byPath, j.ageDecision(ref.idx))
		}
		return byPath
	}
	// In rank order: slot[rank] is 1 + the removal's index in removed.
	// The mtime is spent; it now holds the position in the count order.
	slot := make([]int32, j.ranked)
	for r := range removed {
		removed[r].mtime = int64(cut + r)
		slot[removed[r].rank] = int32(r + 1)
	}
	byPath := make([]Decision, 0, len(removed)+len(aged))
	prefault.Slice(byPath)
	for rank, s := range slot {
		if s == 0 {
			continue
		}
		for len(aged) > 0 && aged[0].rank < int32(rank) { // ranks are distinct
			byPath, aged = append(byPath, j.ageDecision(aged[0].idx)), aged[1:]
		}
		k := removed[s-1]
		e, i := &entries[k.idx], int(k.mtime)
		d := Decision{Path: e.Path, SizeBytes: e.SizeBytes}
		if int64(i) >= j.pol.maxEntries {
			d.Reason, d.Rank = ReasonCount, i+1
		} else {
			d.Reason, d.Cumulative = ReasonSize, sizes[i-cut]
		}
		byPath = append(byPath, d)
	}
	for _, ref := range aged {
		byPath = append(byPath, j.ageDecision(ref.idx))
	}
	return byPath
}

// sortNewestFirst orders survivors, given in rank order, by (mtime DESC,
// rank DESC): (mtime DESC, path DESC), a total order on small keys that
// touches no entry. Reversed, they are in rank DESC; a stable radix sort
// by mtime DESC keeps that among equal mtimes, one pass per byte in which
// the mtimes differ (three for mtimes within half a year), where a
// comparison sort of a million survivors took a tenth of the run.
func sortNewestFirst(keys []ageKey) {
	slices.Reverse(keys)
	if len(keys) < radixMin {
		slices.SortStableFunc(keys, func(a, b ageKey) int { return cmp.Compare(b.mtime, a.mtime) })
		return
	}
	// desc maps mtime DESC to unsigned ASC.
	desc := func(m int64) uint64 { return ^(uint64(m) ^ 1<<63) }
	and, or := ^uint64(0), uint64(0)
	for _, k := range keys {
		and, or = and&desc(k.mtime), or|desc(k.mtime)
	}
	src, dst := keys, []ageKey(nil)
	for shift := 0; shift < 64; shift += 8 {
		if (and^or)>>shift&0xff == 0 {
			continue // every mtime has this byte: the pass would move nothing
		}
		if dst == nil {
			dst = make([]ageKey, len(keys))
		}
		var next [256]int
		for _, k := range src {
			next[desc(k.mtime)>>shift&0xff]++
		}
		for b, sum := 0, 0; b < 256; b++ {
			next[b], sum = sum, sum+next[b]
		}
		for _, k := range src {
			d := desc(k.mtime) >> shift & 0xff
			dst[next[d]] = k
			next[d]++
		}
		src, dst = dst, src
	}
	copy(keys, src)
}

// radixMin is the number of survivors from which sortNewestFirst sorts
// by radix.
const radixMin = 256

// ageDecision is the age removal of entry idx.
func (j *judgement) ageDecision(idx int32) Decision {
	e := &j.in.Paths[idx]
	return Decision{Path: e.Path, SizeBytes: e.SizeBytes, Reason: ReasonAge, MtimeAge: j.pol.mtimeAge(e.Mtime)}
}

// ageKey is a survivor: its mtime (until the count order is known, then
// its position in that order) and where it is.
type ageKey struct {
	mtime int64
	fileRef
}
