package skill

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
)

const now = 1764374400
const day = 86400

func entry(path string, size uint64, mtime int64) Entry {
	return Entry{Path: path, SizeBytes: size, Mtime: mtime, MtimeKnown: true}
}

func input(scope Scope, days, maxEntries, maxSizeMb string, paths ...Entry) Input {
	return Input{Scope: scope, Paths: paths, Now: now, Retention: Retention{
		Days: jsonnum.MustParse(days), MaxEntries: jsonnum.MustParse(maxEntries), MaxSizeMb: jsonnum.MustParse(maxSizeMb)}}
}

// verdicts summarises removed as "path=reason".
func verdicts(r Result) string {
	var out []string
	for _, d := range r.Removed {
		out = append(out, d.Path+"="+string(d.Reason))
	}
	return strings.Join(out, " ")
}

func TestJudge(t *testing.T) {
	m := ".river/memory/"
	for _, tc := range []struct {
		name    string
		in      Input
		removed string
		counts  Counts
	}{
		{"age strictly older than cutoff",
			input(ScopeMemory, "1", "10", "1", entry(m+"a", 1, now-day), entry(m+"b", 1, now-day-1)),
			m + "b=age", Counts{Keep: 1, Remove: 1}},
		{"count tie broken by path descending",
			input(ScopeMemory, "90", "1", "1", entry(m+"a", 1, now), entry(m+"b", 1, now)),
			m + "a=count", Counts{Keep: 1, Remove: 1}},
		{"size from the first entry over the limit",
			input(ScopeMemory, "90", "10", "0.000002", entry(m+"a", 2, now), entry(m+"b", 1, now-1), entry(m+"c", 0, now-2)),
			m + "b=size " + m + "c=size", Counts{Keep: 1, Remove: 2}},
		{"size limit is floored: 2.0000009 bytes allows 2",
			input(ScopeMemory, "90", "10", "0.0000019073495", entry(m+"a", 2, now)),
			"", Counts{Keep: 1}},
		{"built-in single source guarded",
			input(ScopeMemory, "0", "1", "1", entry(m+"index.json", 5, 1)),
			"", Counts{Keep: 1, HardGuarded: 1}},
		{"guard directory form",
			Input{Scope: ScopeTmp, Now: now, HardGuards: []string{".river/tmp/keep/**"}, Retention: input(ScopeTmp, "0", "1", "1").Retention,
				Paths: []Entry{entry(".river/tmp/keep/x", 1, 1), entry(".river/tmp/keeper", 1, 1)}},
			".river/tmp/keeper=age", Counts{Keep: 1, Remove: 1, HardGuarded: 1}},
		{"excluded never removed",
			Input{Scope: ScopeTmp, Now: now, Excludes: []string{"*.keep"}, Retention: input(ScopeTmp, "0", "1", "1").Retention,
				Paths: []Entry{entry(".river/tmp/a.keep", 1, 1), entry(".river/tmp/b", 1, 1)}},
			".river/tmp/b=age", Counts{Keep: 1, Remove: 1, Excluded: 1}},
		{"directory implied by child, trailing slash, type dir",
			input(ScopeTmp, "0", "9", "9", entry(".river/tmp/d", 0, 1), entry(".river/tmp/d/f", 1, 1),
				entry(".river/tmp/e/", 0, 1), Entry{Path: ".river/tmp/g", Dir: true}),
			".river/tmp/d/f=age", Counts{Remove: 1, Directories: 3}},
		{"child found past siblings that sort between (a < a-b < a.c < a/x)",
			input(ScopeTmp, "0", "9", "9", entry(".river/tmp/a", 1, 1), entry(".river/tmp/a-b", 1, 1),
				entry(".river/tmp/a.c", 1, 1), entry(".river/tmp/a/x", 1, 1), entry(".river/tmp/a-", 1, 1)),
			".river/tmp/a-=age .river/tmp/a-b=age .river/tmp/a.c=age .river/tmp/a/x=age", Counts{Remove: 4, Directories: 1}},
		{"unusable mtimes",
			input(ScopeTmp, "0", "9", "9", Entry{Path: ".river/tmp/n"}, entry(".river/tmp/z", 1, 0),
				entry(".river/tmp/f", 1, now+1), entry(".river/tmp/ok", 1, now), entry(".river/tmp/ok2", 1, now), entry(".river/tmp/old", 1, 5)),
			".river/tmp/old=age", Counts{Keep: 5, Remove: 1, MtimeMissing: 1, MtimeInconsistent: 2}},
		{"unusable mtimes over half hand the scope off",
			input(ScopeTmp, "0", "9", "9", Entry{Path: ".river/tmp/n"}, entry(".river/tmp/z", 1, 0), entry(".river/tmp/old", 1, 5)),
			"", Counts{Keep: 3, MtimeMissing: 1, MtimeInconsistent: 1}},
		{"duplicates kept once",
			input(ScopeTmp, "0", "9", "9", entry(".river/tmp/x", 1, 1), entry(".river/tmp/x", 3, 1)),
			"", Counts{Keep: 1, Duplicates: 1}},
		{"out of scope and non-canonical",
			input(ScopeTmp, "0", "9", "9", entry("tmp/x", 1, 1), entry(".river/tmp/./x", 1, 1), entry(".river/tmp/a\\b", 1, 1)),
			"", Counts{OutOfScope: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Judge(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := verdicts(res); got != tc.removed {
				t.Errorf("removed %q, want %q", got, tc.removed)
			}
			if res.Counts != tc.counts {
				t.Errorf("counts %+v, want %+v", res.Counts, tc.counts)
			}
		})
	}
}

func TestInvalidRetentionIsAHandoff(t *testing.T) {
	for _, tc := range []struct{ days, maxEntries, maxSizeMb, keys string }{
		{"-1", "1", "1", "days"},
		{"-0", "1", "1", ""},
		{"0", "0", "1", "maxEntries"},
		{"0", "2.5", "1", "maxEntries"},
		{"0", "1.0", "1", ""},
		{"0", "1e400", "1", ""},
		{"0", "0.1e1", "0", "maxSizeMb"},
		{"-1e-400", "-3", "-0.0", "days maxEntries maxSizeMb"},
	} {
		t.Run(tc.days+","+tc.maxEntries+","+tc.maxSizeMb, func(t *testing.T) {
			res, err := Judge(input(ScopeTmp, tc.days, tc.maxEntries, tc.maxSizeMb, entry(".river/tmp/a", 1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, q := range res.Questions {
				keys = append(keys, q.Key)
			}
			if strings.Join(keys, " ") != tc.keys {
				t.Errorf("questions for %q, want %q", keys, tc.keys)
			}
			if (tc.keys != "") != (res.Status == StatusHandoff && !res.Evaluated) {
				t.Errorf("status %s evaluated %v", res.Status, res.Evaluated)
			}
		})
	}
}

// randomInput builds an inventory with many ties and overlaps.
func randomInput(rng *rand.Rand) Input {
	in := input(ScopeMemory, fmt.Sprint(rng.IntN(5)), fmt.Sprint(1+rng.IntN(6)), "0.00002",
		entry(".river/memory/index.json", 3, now-100*day))
	in.HardGuards = []string{".river/memory/pin/**", ".river/memory/index.json"}
	if rng.IntN(2) == 0 { // guards the normalisation leaves as they are (kept, not copied), one twice
		in.HardGuards = []string{".river/memory/pin", ".river/memory/index.json", ".river/memory/pin"}
	}
	in.Excludes = []string{"*.keep", "!.river/memory/x.keep"}
	for range 5 + rng.IntN(20) {
		e := entry(fmt.Sprintf(".river/memory/%s/%d%s", []string{"a", "b", "pin"}[rng.IntN(3)], rng.IntN(8),
			[]string{".json", ".keep"}[rng.IntN(2)]), uint64(rng.IntN(9)), now-int64(rng.IntN(6))*day)
		if rng.IntN(10) == 0 {
			e.MtimeKnown = false
		}
		in.Paths = append(in.Paths, e)
	}
	return in
}

// TestJudgeIgnoresInputOrder: shuffling paths and guards never changes a
// single field of the result, and Judge never mutates its argument (the
// guards' order included: river gc writes them out as given).
func TestJudgeIgnoresInputOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 200 {
		in := randomInput(rng)
		want, err := Judge(in)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			shuffled := in
			shuffled.Paths = slices.Clone(in.Paths)
			shuffled.HardGuards = slices.Clone(in.HardGuards)
			rng.Shuffle(len(shuffled.Paths), func(a, b int) { shuffled.Paths[a], shuffled.Paths[b] = shuffled.Paths[b], shuffled.Paths[a] })
			rng.Shuffle(len(shuffled.HardGuards), func(a, b int) {
				shuffled.HardGuards[a], shuffled.HardGuards[b] = shuffled.HardGuards[b], shuffled.HardGuards[a]
			})
			before, guards := slices.Clone(shuffled.Paths), slices.Clone(shuffled.HardGuards)
			got, _ := Judge(shuffled)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("case %d: shuffled input changes the result:\n%+v\n%+v", i, got, want)
			}
			if !slices.Equal(before, shuffled.Paths) || !slices.Equal(guards, shuffled.HardGuards) {
				t.Fatalf("case %d: Judge mutated its input", i)
			}
		}
	}
}

func TestBytes(t *testing.T) {
	var b Bytes
	for range 1025 {
		b = b.Add(1<<53 - 1)
	}
	if got, want := b.String(), "9232379236109515775"; got != want { // 1025 × (2^53−1) > 2^63
		t.Errorf("sum %s, want %s", got, want)
	}
	max := Bytes{lo: ^uint64(0)}
	if got := max.Add(1).String(); got != "18446744073709551616" {
		t.Errorf("carry: %s", got)
	}
	for _, v := range []Bytes{{}, max, max.Add(1), b} { // Append extends what it is given
		if got, want := string(v.Append([]byte("n="))), "n="+v.String(); got != want {
			t.Errorf("Append %q, want %q", got, want)
		}
	}
	if lim, unbounded := floorBytes(1048.576); unbounded || lim.String() != "1048" {
		t.Errorf("floor 1048.576 = %s %v", lim, unbounded)
	}
	if _, unbounded := floorBytes(1e300); !unbounded {
		t.Error("1e300 should be beyond any sum")
	}
}

// TestGuardedIsItsOwnGuard: an entry marked Guarded is judged exactly as
// one whose path the hard and derived guards name (decision 374): every
// field of the result, warnings and counts included.
func TestGuardedIsItsOwnGuard(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 74))
	for i := range 300 {
		in := randomInput(rng)
		seen := map[string]int{}
		for _, e := range in.Paths {
			seen[e.Path]++
		}
		flagged, named := in, in
		flagged.Paths = slices.Clone(in.Paths)
		named.HardGuards = slices.Clone(in.HardGuards)
		for k, e := range in.Paths {
			if seen[e.Path] == 1 && rng.IntN(2) == 0 { // a repeated path is never guarded: not flagged
				flagged.Paths[k].Guarded = true
				named.HardGuards = append(named.HardGuards, e.Path)
			}
		}
		flagged.DerivedGuards, named.DerivedGuards = flagged.HardGuards, named.HardGuards
		want, err := Judge(named)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := Judge(flagged); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: a flag judges unlike a guard:\n%+v\n%+v", i, got, want)
		}
	}
}
