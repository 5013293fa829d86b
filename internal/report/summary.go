//go:build linux

package report

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Options shape the human summary for where it goes.
type Options struct {
	// Terminal: the summary goes to a terminal, which gets the first
	// TerminalRemovals removals and a count (unless Verbose); elsewhere
	// the first LogRemovals and a count.
	Terminal bool
	// Verbose lists every removal, even on a terminal.
	Verbose bool
	// Reachable is what the store scopes the run did not select would
	// reclaim (SPEC B7), named after the warnings with the flags that
	// reach it.
	Reachable []Reachable
}

// Reachable is what one scope that was not selected would reclaim.
type Reachable struct {
	Scope skill.Scope
	Items int
	Bytes skill.Bytes
}

// TerminalRemovals is how many removals a terminal shows without --verbose.
const TerminalRemovals = 20

// LogRemovals is how many removals the summary shows off a terminal (a CI
// log) without --verbose.
const LogRemovals = 200

// shown is how many of a list of n paths the summary shows: every one
// with Verbose, else the first TerminalRemovals on a terminal and the
// first LogRemovals elsewhere; the JSON record always has them all
// (SPEC B5, B6). Every list of paths in the summary is cut this way.
func (opt Options) shown(n int) int {
	switch {
	case opt.Verbose:
		return n
	case opt.Terminal:
		return min(n, TerminalRemovals)
	}
	return min(n, LogRemovals)
}

// totals are the removals' count and bytes, overall and per scope.
type totals struct {
	files     int    // every removal: files, entries and lines
	kinds     [3]int // files, memory entries, ledger lines (countKind)
	bytes     skill.Bytes
	allocated uint64 // st_blocks × 512 of the removals
	byScope   map[skill.Scope]scopeTotal
}

type scopeTotal struct {
	files int
	bytes skill.Bytes
}

func sum(o gc.Outcome) totals {
	t := totals{byScope: map[skill.Scope]scopeTotal{}}
	for _, s := range o.Scopes {
		st := t.byScope[s.Scope]
		for k, d := range s.Removed {
			if k < len(s.Stamps) {
				t.allocated += uint64(max(s.Stamps[k].Allocated, 0))
			}
			t.files++
			t.kinds[countKind(s.Scope)]++
			if s.Scope.Store() == "" {
				t.bytes = t.bytes.Add(d.SizeBytes)
			}
			st = scopeTotal{st.files + 1, st.bytes.Add(d.SizeBytes)}
		}
		// A rewritten store frees its separators too (decision 241).
		t.bytes = t.bytes.Add(s.StoreFreed)
		t.byScope[s.Scope] = st
	}
	return t
}

// countKind is what a scope's removals are: 0 files, 1 entries of the
// memory index, 2 lines of the eval ledger.
func countKind(s skill.Scope) int {
	switch s {
	case skill.ScopeMemoryEntries:
		return 1
	case skill.ScopeEvalLedger:
		return 2
	}
	return 0
}

// countKeys are the catalog entries of countKind's kinds, singular and
// plural ("1 file", "2 files").
var countKeys = [3][2]string{{"gc-count-file", "gc-count-files"}, {"gc-count-entry", "gc-count-entries"},
	{"gc-count-line", "gc-count-lines"}}

// countWords names what the totals count (SPEC B7): "3 files" when all
// are of one kind, "536 items: 262 files, 89 memory entries, 185 ledger
// lines" when they are not.
func countWords(p printer, t totals) string {
	var parts []string
	for k, n := range t.kinds {
		if n > 0 {
			key := countKeys[k][1]
			if n == 1 {
				key = countKeys[k][0]
			}
			parts = append(parts, p.Sprintf(key, strconv.Itoa(n)))
		}
	}
	switch len(parts) {
	case 0:
		return p.Sprintf("gc-count-files", "0")
	case 1:
		return parts[0]
	}
	return p.Sprintf("gc-count-items", strconv.Itoa(t.files), strings.Join(parts, p.Sprintf("gc-count-sep")))
}

// reclaimed is the space the totals line reports: in force mode only
// what was freed (a file whose other hard links survive frees nothing,
// SPEC B4), in a dry-run what the removals would free at most.
func reclaimed(o gc.Outcome, t totals) skill.Bytes {
	if o.Mode == gc.Force {
		return o.FreedBytes
	}
	return t.bytes
}

// reclaimedAllocated is reclaimed's space as the disk counts it
// (st_blocks × 512, as du does; SPEC B5).
func reclaimedAllocated(o gc.Outcome, t totals) uint64 {
	if o.Mode == gc.Force {
		return o.FreedAllocated
	}
	return t.allocated
}

// scopeRetention words, one line each, the scopes whose policy is their
// own (SPEC D6), in scope order.
func scopeRetention(p printer, o gc.Outcome, r skill.Retention) []string {
	var lines []string
	for _, s := range o.Scopes {
		if sr := s.Retention; sr != r && sr != (skill.Retention{}) {
			lines = append(lines, p.Sprintf("gc-header-scope", string(s.Scope), sr.Days.Literal, sr.MaxEntries.Literal, sr.MaxSizeMb.Literal))
		}
	}
	return lines
}

// Summary writes river gc's human summary in lang: the totals (like
// docker's "Total reclaimed space"), the header with mode, retention and
// now, the per-scope table, the removals aligned in columns, river gc's warnings
// (gc already turned the engine's into its own) and the engine's questions, and the count of errors (which Errors
// writes). It streams: 200k removals cost two linear passes.
func Summary(w io.Writer, o gc.Outcome, r skill.Retention, now int64, lang render.Lang, opt Options) error {
	p := printer{lang}
	b := bufio.NewWriter(w)
	t := sum(o)
	// Reclaimed space is what was freed: a file whose other hard links
	// survive frees nothing, and is told apart (SPEC B4).
	b.WriteString(p.Sprintf("gc-total-"+string(o.Mode), HumanBytes(reclaimed(o, t).String()), countWords(p, t)) + "\n")
	if o.Linked > 0 {
		b.WriteString(p.Sprintf("gc-total-linked", HumanBytes(o.LinkedBytes.String()), strconv.Itoa(o.Linked)) + "\n")
	}
	if o.Run.Root != "" { // the folder the run judged, named first (SPEC B5)
		b.WriteString(p.Sprintf("gc-debug-root", Display(o.Run.Root)) + "\n")
	}
	if a := o.Applied; a != nil { // an --apply run names its plan (SPEC J2)
		b.WriteString(p.Sprintf("gc-plan-applying", a.Digest, strconv.Itoa(len(a.Items))) + "\n")
	}
	if t.files > 0 && o.Requests == nil { // objects have no allocated size (a bucket run counts requests)
		b.WriteString(p.Sprintf("gc-total-allocated", HumanBytes(strconv.FormatUint(reclaimedAllocated(o, t), 10))) + "\n")
	}
	b.WriteString(p.Sprintf("gc-header", string(o.Mode), r.Days.Literal, r.MaxEntries.Literal, r.MaxSizeMb.Literal,
		time.Unix(now, 0).UTC().Format(time.RFC3339)) + "\n")
	for _, line := range scopeRetention(p, o, r) {
		b.WriteString(line + "\n")
	}
	widths := []int{18, 8, 10, 8, 10, 10}
	row := func(cells ...string) {
		b.WriteString(pad(cells[0], widths[0], true))
		for i, c := range cells[1:] {
			b.WriteString(" " + pad(c, widths[i+1], false))
		}
		b.WriteByte('\n')
	}
	row(p.Sprintf("gc-scope"), p.Sprintf("gc-kept"), p.Sprintf("gc-size"), p.Sprintf("gc-removed"), p.Sprintf("gc-size"),
		p.Sprintf("gc-protected"))
	for _, s := range o.Scopes {
		rm := t.byScope[s.Scope]
		pr := s.Protected.HardGuarded + s.Protected.Excluded + s.Protected.Tracked + s.Protected.Fresh
		row(string(s.Scope), strconv.Itoa(s.Kept), HumanBytes(s.KeptBytes.String()),
			strconv.Itoa(rm.files), HumanBytes(rm.bytes.String()), strconv.Itoa(pr))
	}
	if t.files > 0 {
		listKey := "gc-removed-list"
		if o.Mode == gc.DryRun {
			listKey = "gc-would-remove"
		}
		b.WriteString(p.Sprintf(listKey, strconv.Itoa(t.files)) + "\n")
		shown := opt.shown(t.files)
		writeRemovals(b, p, largestRemovals(o, shown), now)
		if shown < t.files {
			b.WriteString("  " + p.Sprintf("gc-more", strconv.Itoa(t.files-shown)) + "\n")
		}
	}
	writeProtected(b, p, o.ProtectedFiles, opt.Terminal)
	if n := len(o.RunDirs); n > 0 {
		b.WriteString(p.Sprintf("gc-run-dirs-"+string(o.Mode), strconv.Itoa(n), Display(o.RunDirs[0])) + "\n")
	}
	if n := len(o.RunDirsStay); n > 0 {
		b.WriteString(p.Sprintf("gc-run-dirs-stay", strconv.Itoa(n), Display(o.RunDirsStay[0])) + "\n")
	}
	writeInterrupted(b, p, o.Interrupted, opt)
	for _, wa := range o.Warnings {
		fmt.Fprintf(b, "%s: %s\n", p.Sprintf("gc-warning"), WarningText(wa, lang))
	}
	writeReachable(b, p, opt.Reachable)
	for _, s := range o.Scopes {
		for _, q := range s.Result.Questions {
			fmt.Fprintf(b, "%s %s: %s\n", p.Sprintf("gc-question"), s.Scope, render.QuestionMessage(q, s.Scope, lang))
		}
	}
	if len(o.Errors) > 0 {
		b.WriteString(p.Sprintf("gc-errors", strconv.Itoa(len(o.Errors))) + "\n")
	}
	return b.Flush()
}

// writeProtected lists the protected files with their rule (--verbose,
// SPEC B7), bounded as the removals are without --verbose: the first
// TerminalRemovals on a terminal, LogRemovals elsewhere, and a count of
// the rest (the JSON has them all).
func writeProtected(b *bufio.Writer, p printer, ps []gc.ProtectedFile, terminal bool) {
	if len(ps) == 0 {
		return
	}
	b.WriteString(p.Sprintf("gc-protected-list", strconv.Itoa(len(ps))) + "\n")
	shown := min(len(ps), LogRemovals)
	if terminal {
		shown = min(len(ps), TerminalRemovals)
	}
	w := cols(p.Sprintf("gc-col-rule"))
	for _, pf := range ps[:shown] {
		w = max(w, cols(p.Sprintf("gc-rule-"+string(pf.Rule))))
	}
	b.WriteString("  " + pad(p.Sprintf("gc-col-rule"), w, true) + "  " + pad(p.Sprintf("gc-scope"), 16, true) + "  " + p.Sprintf("gc-col-path") + "\n")
	for _, pf := range ps[:shown] {
		b.WriteString("  " + pad(p.Sprintf("gc-rule-"+string(pf.Rule)), w, true) + "  " + pad(string(pf.Scope), 16, true) + "  " + Display(pf.Path) + "\n")
	}
	if shown < len(ps) {
		b.WriteString("  " + p.Sprintf("gc-more", strconv.Itoa(len(ps)-shown)) + "\n")
	}
}

// writeReachable names what the unselected store scopes would reclaim
// and the flags that reach it: one line for the total and the flags, one
// per scope.
func writeReachable(b *bufio.Writer, p printer, rs []Reachable) {
	if len(rs) == 0 {
		return
	}
	flags := ""
	for _, r := range rs {
		flags += " --scope " + string(r.Scope)
	}
	b.WriteString(p.Sprintf("gc-reach", flags[1:]) + "\n")
	for _, r := range rs {
		var t totals
		t.files, t.kinds[countKind(r.Scope)] = r.Items, r.Items
		b.WriteString("  " + p.Sprintf("gc-reach-scope", string(r.Scope), HumanBytes(r.Bytes.String()), countWords(p, t)) + "\n")
	}
}

// removalCells are one removal's columns: reason, size, age in days,
// timestamp date (UTC), source; the path comes last so that a long path
// never pushes the other columns out of line.
func removalCells(rm gc.Removed, now int64) [5]string {
	return [5]string{string(rm.Reason), HumanBytes(strconv.FormatUint(rm.SizeBytes, 10)),
		strconv.FormatInt(ageDays(now, rm.Timestamp), 10), date(rm.Timestamp), string(rm.Source)}
}

// writeRemovals writes the removals under a header, each column as wide
// as its widest cell (one pass to measure, one to write).
func writeRemovals(b *bufio.Writer, p printer, rms iter.Seq[gc.Removed], now int64) {
	head := [5]string{p.Sprintf("gc-col-reason"), p.Sprintf("gc-size"), p.Sprintf("gc-col-age"),
		p.Sprintf("gc-col-timestamp"), p.Sprintf("gc-col-source")}
	var w [5]int
	for i, h := range head {
		w[i] = cols(h)
	}
	for rm := range rms {
		for i, c := range removalCells(rm, now) {
			w[i] = max(w[i], cols(c))
		}
	}
	line := func(cells [5]string, path string) {
		b.WriteString("  ")
		for i, c := range cells {
			b.WriteString(pad(c, w[i], i != 1 && i != 2) + "  ")
		}
		b.WriteString(path + "\n")
	}
	line(head, p.Sprintf("gc-col-path"))
	for rm := range rms {
		line(removalCells(rm, now), Display(rm.Path))
	}
}

// ageDays is (now − ts) div 86400, as the engine counts age.
func ageDays(now, ts int64) int64 {
	d := now - ts
	if d < 0 {
		return 0
	}
	return d / 86400
}

// date is the UTC calendar date of an epoch second.
func date(ts int64) string { return time.Unix(ts, 0).UTC().Format(time.DateOnly) }
