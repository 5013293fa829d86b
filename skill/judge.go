package skill

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/gitignore"
)

// candidate is an in-scope file entry that reached classification step 3.
type candidate struct {
	e   *Entry
	nfc string
}

// Judge classifies every path of one document (SPEC A7) and returns the
// verdict. It fails only when the caller passes what the gate would have
// refused: an unknown scope or a malformed exclude pattern.
func Judge(in Input) (Result, error) {
	if !in.Scope.Valid() {
		return Result{}, fmt.Errorf("unknown scope %q", in.Scope)
	}
	if qs := retentionQuestions(in.Retention); len(qs) > 0 {
		return Result{Status: StatusHandoff, Scope: in.Scope, Questions: qs}, nil
	}
	excludes, err := gitignore.Compile(in.Excludes)
	if err != nil {
		return Result{}, fmt.Errorf("excludes: %w", err)
	}
	j := judgement{
		in:       in,
		pol:      newPolicy(in.Retention, in.Now),
		input:    normaliseGuards(in.HardGuards),
		excludes: excludes,
		res:      Result{Status: StatusOK, Scope: in.Scope, Evaluated: true},
	}
	j.builtin = guards{}
	if src := in.Scope.SingleSource(); src != "" {
		j.builtin = guards{src}
	}
	j.classify(j.files())
	j.finish()
	return j.res, nil
}

// judgement carries the state of one Judge call.
type judgement struct {
	in       Input
	pol      policy
	input    guards // the caller's hardGuards, NFC, suffix-stripped
	builtin  guards // the scope's single source
	excludes *gitignore.Matcher
	res      Result

	survivors  []*Entry // usable mtime, not aged: count and size apply
	guarded    []string // per-path warning subjects, by kind
	guardExcl  []string
	guardAge   []string
	unguarded  []string
	missing    []string
	inconsist  []string
	duplicated []string
}

func normaliseGuards(raw []string) guards {
	gs := make(guards, 0, len(raw))
	for _, g := range raw {
		gs = append(gs, guardPrefix(norm.NFC.String(g)))
	}
	return gs
}

// files applies steps 1–3: drops directories and out-of-scope paths,
// resolves duplicates, and returns the unique in-scope files by path.
func (j *judgement) files() []candidate {
	paths := make([]string, len(j.in.Paths))
	for i := range j.in.Paths {
		paths[i] = j.in.Paths[i].Path
	}
	slices.Sort(paths)
	var cands []candidate
	for i := range j.in.Paths {
		e := &j.in.Paths[i]
		if e.Dir || strings.HasSuffix(e.Path, "/") || hasChild(paths, e.Path) {
			j.res.Counts.Directories++
			continue
		}
		if !Canonical(e.Path) {
			j.res.Counts.OutOfScope++
			continue
		}
		nfc := norm.NFC.String(e.Path)
		if !j.in.Scope.InScope(nfc) {
			j.res.Counts.OutOfScope++
			continue
		}
		cands = append(cands, candidate{e: e, nfc: nfc})
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return strings.Compare(a.e.Path, b.e.Path) })
	unique := cands[:0]
	for i := 0; i < len(cands); {
		k := i + 1
		for k < len(cands) && cands[k].e.Path == cands[i].e.Path {
			k++
		}
		if k-i == 1 {
			unique = append(unique, cands[i])
		} else {
			j.duplicate(cands[i:k])
		}
		i = k
	}
	return unique
}

// hasChild reports whether another path starts with p + "/".
func hasChild(sorted []string, p string) bool {
	prefix := p + "/"
	i := sort.SearchStrings(sorted, prefix)
	return i < len(sorted) && strings.HasPrefix(sorted[i], prefix)
}

// duplicate keeps one copy of a repeated path, unevaluated, with the
// largest size given.
func (j *judgement) duplicate(same []candidate) {
	size := uint64(0)
	for _, c := range same {
		size = max(size, c.e.SizeBytes)
	}
	j.res.Counts.Duplicates++
	j.keep(size)
	j.duplicated = append(j.duplicated, same[0].e.Path)
}

func (j *judgement) keep(size uint64) {
	j.res.Counts.Keep++
	j.res.KeptBytes = j.res.KeptBytes.Add(size)
}

// classify applies steps 4–9 to unique in-scope files (sorted by path).
func (j *judgement) classify(files []candidate) {
	for _, c := range files {
		e := c.e
		usable := e.MtimeKnown && e.Mtime > 0 && e.Mtime <= j.in.Now
		excluded := j.excludes.Match(c.nfc)
		if byInput := j.input.cover(c.nfc); byInput || j.builtin.cover(c.nfc) {
			j.res.Counts.HardGuarded++
			j.keep(e.SizeBytes)
			if excluded {
				j.guardExcl = append(j.guardExcl, e.Path)
			}
			if usable && j.pol.aged(e.Mtime) {
				j.guardAge = append(j.guardAge, e.Path)
			}
			if !byInput {
				j.unguarded = append(j.unguarded, e.Path)
			}
			continue
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
			j.remove(Decision{Path: e.Path, SizeBytes: e.SizeBytes, SizeLiteral: e.SizeLiteral,
				Reason: ReasonAge, MtimeAge: j.pol.mtimeAge(e.Mtime)})
		default:
			j.survivors = append(j.survivors, e)
		}
	}
	j.applyCountAndSize()
	slices.SortFunc(j.res.Removed, func(a, b Decision) int { return strings.Compare(a.Path, b.Path) })
}

func (j *judgement) remove(d Decision) {
	j.res.Counts.Remove++
	j.res.Removed = append(j.res.Removed, d)
}

// applyCountAndSize orders the survivors newest first (mtime DESC, path
// DESC): past maxEntries they go for count; within it, once the running
// size exceeds the limit, for size.
func (j *judgement) applyCountAndSize() {
	order := slices.Clone(j.survivors)
	slices.SortFunc(order, func(a, b *Entry) int {
		if c := cmp.Compare(b.Mtime, a.Mtime); c != 0 {
			return c
		}
		return strings.Compare(b.Path, a.Path)
	})
	var cum Bytes
	for i, e := range order {
		d := Decision{Path: e.Path, SizeBytes: e.SizeBytes, SizeLiteral: e.SizeLiteral}
		if int64(i) >= j.pol.maxEntries {
			d.Reason, d.Rank = ReasonCount, i+1
			j.remove(d)
			continue
		}
		cum = cum.Add(e.SizeBytes)
		if j.pol.exceeds(cum) {
			d.Reason, d.Cumulative = ReasonSize, cum
			j.remove(d)
			continue
		}
		j.keep(e.SizeBytes)
	}
}
