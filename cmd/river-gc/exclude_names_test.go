//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// excludeIDs are memory ids holding the characters the exclude syntax
// reads specially ('/' separates, '#' starts a comment at the start, '*',
// '?' and '[' are wildcards, '%' is the names' own escape, a space is
// trimmed at the end, non-ASCII is escaped in names). exact says whether
// the raw id typed as a pattern names that entry alone ("a*b" is a glob).
var excludeIDs = []struct {
	id    string
	exact bool
}{
	{"a/b", true}, {"a#b", true}, {"a*b", false}, {"a?b", true}, {"a[b]", true},
	{"50%", true}, {"a b", true}, {"日本/メモ", true}, {"ü x", true},
}

// excludeNamesIndex is an index of one old review per id of excludeIDs,
// all removable by age, and one element without an id (named by its
// position, always kept).
func excludeNamesIndex() string {
	var es []string
	for _, c := range excludeIDs {
		id, _ := json.Marshal(c.id)
		es = append(es, strings.Replace(oldReview, `"rev-old"`, string(id), 1))
	}
	es = append(es, strings.Replace(oldReview, `"id":"rev-old",`, "", 1))
	return memoryIndex(es...)
}

// TestExcludeTakesEntryNamesAsPrinted (issue 24's A3; decision 240): an
// entry whose id holds '/', '#', '*', '?', '[', '%', a space or
// non-ASCII is excluded by the name river gc prints for it (in removed[],
// --explain and --verbose), copied verbatim, and also by its raw id after
// "<store>#"; --explain answers for the raw id with the printed name; a
// position name ("#[10]") excludes as printed. No such pattern is called
// unused.
func TestExcludeTakesEntryNamesAsPrinted(t *testing.T) {
	t.Parallel()
	index := excludeNamesIndex()
	root := writeStores(t, map[string]string{indexPath: index})
	all, _ := riverGC(t, root, "--scope", "memory-entries")
	if len(all) != len(excludeIDs) {
		t.Fatalf("a dry-run removes %q, want the %d entries with ids", all, len(excludeIDs))
	}
	printed := map[string]string{}
	for _, c := range excludeIDs {
		ex := explainOne(t, root, indexPath+"#"+c.id)
		if !strings.HasPrefix(ex, indexPath+"#") || !slices.Contains(all, ex) {
			t.Fatalf("--explain %q answers for %q, not for a removed name of %q", indexPath+"#"+c.id, ex, all)
		}
		printed[c.id] = ex
	}
	for _, c := range excludeIDs {
		for _, form := range []struct {
			name, pattern string
			exact         bool
		}{
			{"printed", printed[c.id], true},
			{"raw", indexPath + "#" + c.id, c.exact},
			{"raw, any store", "**/index.json#" + c.id, c.exact},
		} {
			t.Run(c.id+"/"+form.name, func(t *testing.T) {
				t.Parallel() // dry-runs: root is only read
				removed, res := riverGC(t, root, "--scope", "memory-entries", "--exclude", form.pattern)
				if slices.Contains(removed, printed[c.id]) {
					t.Errorf("--exclude %q: %q still removed", form.pattern, printed[c.id])
				}
				if want := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return n == printed[c.id] }); form.exact && !slices.Equal(removed, want) {
					t.Errorf("--exclude %q removes %q, want %q", form.pattern, removed, want)
				}
				for _, w := range res.Warnings {
					if w.Kind == "unused-exclude" {
						t.Errorf("--exclude %q: %s", form.pattern, w.Message)
					}
				}
			})
		}
	}
	t.Run("position name", func(t *testing.T) {
		t.Parallel()
		pos := indexPath + "#[10]"
		_, res := riverGC(t, root, "--scope", "memory-entries", "--exclude", pos)
		for _, w := range res.Warnings {
			if w.Kind == "unused-exclude" {
				t.Errorf("--exclude %q: %s", pos, w.Message)
			}
		}
	})
	t.Run("--force keeps the raw-id exclude's entry", func(t *testing.T) {
		t.Parallel()
		root := writeStores(t, map[string]string{indexPath: index})
		riverGC(t, root, "--scope", "memory-entries", "--force", "--exclude", indexPath+"#日本/メモ")
		data, err := os.ReadFile(filepath.Join(root, indexPath))
		if err != nil {
			t.Fatal(err)
		}
		var st struct{ Entries []struct{ ID *string } }
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range st.Entries {
			if e.ID != nil {
				ids = append(ids, *e.ID)
			}
		}
		if !slices.Equal(ids, []string{"日本/メモ"}) {
			t.Errorf("after --force the index holds ids %q, want only the excluded one", ids)
		}
	})
}

// explainOne runs --explain on one path and returns the name it answers
// for (the text before the first ':' of the answer).
func explainOne(t *testing.T, root, p string) string {
	t.Helper()
	bin, err := exec.LookPath("river-gc")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--lang", "en", "--scope", "memory-entries", "--explain", p)
	cmd.Dir = root // command-line paths are relative to the working directory
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("--explain %q: %v\n%s", p, err, out)
	}
	name, _, _ := strings.Cut(string(out), ":\n")
	name, _, _ = strings.Cut(name, ": scope ")
	return name
}
