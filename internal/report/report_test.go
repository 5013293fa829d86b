//go:build linux

package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

func TestHumanBytes(t *testing.T) {
	for in, want := range map[string]string{"0": "0 B", "1023": "1023 B", "1024": "1.0 KiB", "1572864": "1.5 MiB",
		"18446744073709551616": "16.0 EiB"} {
		if got := HumanBytes(in); got != want {
			t.Errorf("HumanBytes(%s) = %q, want %q", in, got, want)
		}
	}
}

const now = 1764374400 // 2025-11-29T00:00:00Z

func retention(t testing.TB) skill.Retention {
	num := func(s string) jsonnum.Number {
		n, ok := jsonnum.Parse(s)
		if !ok {
			t.Fatalf("jsonnum.Parse(%q)", s)
		}
		return n
	}
	return skill.Retention{Days: num("90"), MaxEntries: num("1000"), MaxSizeMb: num("500")}
}

// outcome has n age removals in scope tmp, one per day of age.
func outcome(n int) gc.Outcome {
	o := gc.Outcome{Mode: gc.DryRun, Scopes: []gc.ScopeOutcome{{Scope: skill.ScopeTmp}}}
	s := &o.Scopes[0]
	for i := range n {
		ts := int64(now - (100+i%1000)*86400)
		s.Removed = append(s.Removed, skill.Decision{Path: fmt.Sprintf(".river/tmp/f%07d", i), SizeBytes: uint64(i),
			Reason: skill.ReasonAge, MtimeAge: int64(100 + i%1000)})
		s.Stamps = append(s.Stamps, gc.Stamp{Timestamp: ts, Source: scan.SourceMtime})
	}
	return o
}

func summary(t *testing.T, o gc.Outcome, lang render.Lang, opt Options) string {
	var b bytes.Buffer
	if err := Summary(&b, o, retention(t), now, lang, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSummaryTruncatesOnATerminalOnly(t *testing.T) {
	o := outcome(25)
	for _, tc := range []struct {
		opt   Options
		lines int
		more  bool
	}{
		{Options{Terminal: true}, TerminalRemovals, true},
		{Options{Terminal: true, Verbose: true}, 25, false},
		{Options{}, 25, false},
	} {
		s := summary(t, o, render.English, tc.opt)
		if got := strings.Count(s, " .river/tmp/f"); got != tc.lines {
			t.Errorf("%+v: %d removal lines, want %d", tc.opt, got, tc.lines)
		}
		if got := strings.Contains(s, "… and 5 more (see --json or --verbose)\n"); got != tc.more {
			t.Errorf("%+v: count line shown = %v, want %v\n%s", tc.opt, got, tc.more, s)
		}
	}
	if !strings.HasPrefix(summary(t, o, render.English, Options{}), "Total reclaimable space: 300 B, 25 files (dry-run") {
		t.Error("the summary does not start with the totals")
	}
}

// TestRemovalColumnsAlign: every removal line has its path at the same
// display column, in Japanese too (wide headers).
func TestRemovalColumnsAlign(t *testing.T) {
	o := outcome(3)
	o.Scopes[0].Removed[1].SizeBytes = 5 << 30
	o.Scopes[0].Stamps[2].Source = scan.SourceMetadata
	for _, lang := range []render.Lang{render.English, render.Japanese} {
		s := summary(t, o, lang, Options{})
		col := -1
		for _, line := range strings.Split(s, "\n") {
			i := strings.Index(line, ".river/tmp/f")
			if i < 0 {
				continue
			}
			if c := cols(line[:i]); col < 0 {
				col = c
			} else if c != col {
				t.Errorf("%s: path at column %d, want %d:\n%s", lang, c, col, s)
			}
		}
	}
}

func TestMarkdownCapsRemovals(t *testing.T) {
	var b bytes.Buffer
	if err := Markdown(&b, outcome(MarkdownRemovals+7), retention(t), now, render.English); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if got := strings.Count(s, "| `.river/tmp/f"); got != MarkdownRemovals {
		t.Errorf("%d removal rows, want %d", got, MarkdownRemovals)
	}
	if !strings.Contains(s, "… and 7 more (the full list is in the JSON result)") {
		t.Error("no count of the rows left out")
	}
}

func TestMarkdownEscapesPaths(t *testing.T) {
	o := outcome(1)
	o.Scopes[0].Removed[0].Path = ".river/tmp/a|b`c"
	var b bytes.Buffer
	if err := Markdown(&b, o, retention(t), now, render.English); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| `.river/tmp/a¦b'c` |") {
		t.Errorf("path not made safe for a table cell:\n%s", b.String())
	}
}

func TestErrorTextIsWordedPerLanguage(t *testing.T) {
	for _, tc := range []struct {
		err    *fserr.Error
		en, ja string
	}{
		{&fserr.Error{Op: fserr.OpDelete, Path: ".", Err: &fserr.InterruptedError{NotAttempted: 3}},
			"run interrupted: 3 deletions not attempted", "実行が中断されました: 3 件の削除は試行していません"},
		{&fserr.Error{Op: fserr.OpDelete, Path: "a", Err: &fserr.ChangedError{Fields: []fserr.Field{fserr.FieldSize, fserr.FieldMtime}}},
			"changed since scan: size, mtime", "スキャン後に変更されました: size, mtime"},
		{&fserr.Error{Op: fserr.OpOpenRoot, Path: ".", Err: &fserr.KindError{Kind: fserr.KindOf(0o120000), Want: fserr.ErrNotDir}},
			"cannot open root directory: not a directory (symlink)", "ルートディレクトリを開けません: ディレクトリではありません (symlink)"},
		{fserr.New(fserr.OpReadDir, "d", fserr.ErrNotUTF8), "file name is not valid UTF-8; not listed", "ファイル名が UTF-8 ではないため、一覧に含めません"},
		{fserr.New(fserr.OpLock, ".", fserr.ErrLocked), "cannot lock: another river gc --force run holds the lock",
			"ロックを取得できません: 別の river gc --force 実行がロックを保持しています"},
	} {
		if got := ErrorText(tc.err, render.English); got != tc.en {
			t.Errorf("en %v: %q, want %q", tc.err, got, tc.en)
		}
		if got := ErrorText(tc.err, render.Japanese); got != tc.ja {
			t.Errorf("ja %v: %q, want %q", tc.err, got, tc.ja)
		}
	}
}

// TestEveryWarningKindIsWorded: each kind has its own sentence in both
// languages, naming its path (a count alone for the counted kinds without
// one), and none says mtimeEpoch.
func TestEveryWarningKindIsWorded(t *testing.T) {
	for _, k := range []gc.WarningKind{gc.WarnDanglingSingleSource, gc.WarnSingleSourceOutsideRoot, gc.WarnUnusedExclude,
		gc.WarnUnjudgeableName, gc.WarnFutureTimestamp, gc.WarnAggressive, gc.WarnUnprotectedDelete, gc.WarnLeftover, gc.WarnRestored} {
		w := gc.Warning{Kind: k, Scope: skill.ScopeEvals, Path: "P/x", Target: "T/y", N: 7, Total: 8}
		for _, lang := range []render.Lang{render.English, render.Japanese} {
			s := WarningText(w, lang)
			if s == string(k) || strings.Contains(s, "%!") || strings.Contains(s, "mtimeEpoch") || !strings.Contains(s, "7") && k != gc.WarnUnusedExclude &&
				k != gc.WarnDanglingSingleSource && k != gc.WarnSingleSourceOutsideRoot {
				t.Errorf("%s %s: %q", lang, k, s)
			}
			if k != gc.WarnAggressive && k != gc.WarnUnprotectedDelete && !strings.Contains(s, "P/x") {
				t.Errorf("%s %s does not name the path: %q", lang, k, s)
			}
		}
	}
}

func TestGCJSONEvidence(t *testing.T) {
	o := outcome(1)
	s := &o.Scopes[0]
	s.Removed = append(s.Removed, skill.Decision{Path: ".river/tmp/z", Reason: skill.ReasonCount, Rank: 1001})
	s.Stamps = append(s.Stamps, gc.Stamp{Timestamp: now, Source: scan.SourceRun})
	var b bytes.Buffer
	if err := GCJSON(&b, o, retention(t)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"ageDays": 100,`, `"rank": 1001,`, `"timestampSource": "run"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %s in\n%s", want, b.String())
		}
	}
}

// BenchmarkSummary200k: the full (non-terminal) summary of 200k removals.
func BenchmarkSummary200k(b *testing.B) {
	o := outcome(200_000)
	r := retention(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := Summary(io.Discard, o, r, now, render.English, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSummary2k is the baseline for BenchmarkSummary200k's ratio.
func BenchmarkSummary2k(b *testing.B) {
	o := outcome(2_000)
	r := retention(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := Summary(io.Discard, o, r, now, render.English, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGCJSONLayoutIsJSONIndent: GCJSON lays its document out byte for
// byte as json.Indent(…, "", "  ") lays out the compact form, for empty
// and full outcomes with every evidence kind, warnings, errors and
// escape-laden paths; removed[] and evidence[] merge the scopes by path.
func TestGCJSONLayoutIsJSONIndent(t *testing.T) {
	full := outcome(3)
	full.Scopes[0].Removed[0].Path = ".river/tmp/a\"b\\c,{}[]:\u2028\x01"
	full.Scopes[0].Removed[1].Reason, full.Scopes[0].Removed[1].Rank = skill.ReasonCount, 7
	full.Scopes[0].Removed[2].Reason, full.Scopes[0].Removed[2].Cumulative = skill.ReasonSize, skill.Bytes{}.Add(1<<53)
	full.Scopes = append([]gc.ScopeOutcome{{Scope: skill.ScopeMemory, Kept: 2, KeptBytes: skill.Bytes{}.Add(9),
		Removed: []skill.Decision{{Path: ".river/memory/m", SizeBytes: 1, Reason: skill.ReasonAge, MtimeAge: 61}},
		Stamps:  []gc.Stamp{{Timestamp: now - 61*86400, Source: scan.SourceMetadata}}}}, full.Scopes...)
	full.Scopes = append(full.Scopes, gc.ScopeOutcome{Scope: skill.ScopeEvals,
		Removed: []skill.Decision{{Path: "artifacts/evals/e", Reason: skill.ReasonAge}}, Stamps: []gc.Stamp{{Source: scan.SourceRun}}})
	full.Warnings = []gc.Warning{{Kind: gc.WarnAggressive, Scope: skill.ScopeTmp, N: 3, Total: 3},
		{Kind: gc.WarnUnusedExclude, Path: "a/**"}}
	full.Errors = []*fserr.Error{fserr.New(fserr.OpStat, ".river/tmp/x", fserr.ErrTooLarge)}
	for name, o := range map[string]gc.Outcome{"empty": {Mode: gc.DryRun}, "no removals": {Mode: gc.Force,
		Scopes: []gc.ScopeOutcome{{Scope: skill.ScopeTmp}}}, "full": full} {
		var got, compact, want bytes.Buffer
		if err := GCJSON(&got, o, retention(t)); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&compact, got.Bytes()); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, got.String())
		}
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		want.WriteByte('\n')
		if got.String() != want.String() {
			t.Errorf("%s:\n%s\nwant\n%s", name, got.String(), want.String())
		}
		var doc struct {
			Removed []struct{ Path string }
		}
		if err := json.Unmarshal(got.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(doc.Removed); i++ {
			if doc.Removed[i-1].Path >= doc.Removed[i].Path {
				t.Errorf("%s: removed[] out of path order at %d: %q", name, i, doc.Removed)
			}
		}
		if name == "full" && len(doc.Removed) != 5 {
			t.Errorf("full: %d removals, want 5", len(doc.Removed))
		}
	}
}
