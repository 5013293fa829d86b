package render_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	_ "github.com/plangate-gc/plangate-gc/internal/rivergc/catalog" // river gc's words
	"github.com/plangate-gc/plangate-gc/render"
)

// riverGC reports whether a catalog key is one of river gc's messages,
// which follow docs/glossary.md (plangate-gc's review lines are a
// contract of their own and keep their words).
func riverGC(key string) bool {
	for _, p := range []string{"gc-", "title-river-gc-", "why-river-gc-", "fix-river-gc-"} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// bannedTerms reads the glossary's last column: the English words a
// Japanese message must not use (what follows "but" names the literal
// spellings that stay allowed, and is not read).
func bannedTerms(t *testing.T) []string {
	b, err := os.ReadFile("../docs/glossary.md")
	if err != nil {
		t.Fatal(err)
	}
	var terms []string
	code := regexp.MustCompile("`([^`]+)`")
	for line := range strings.SplitSeq(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(line, "|") {
			continue
		}
		last, _, _ := strings.Cut(cells[3], "(but")
		for _, m := range code.FindAllStringSubmatch(last, -1) {
			terms = append(terms, m[1])
		}
	}
	if len(terms) < 10 {
		t.Fatalf("glossary: %d banned terms read, the table's last column looks unread", len(terms))
	}
	return terms
}

// TestJapaneseFollowsTheGlossary checks every Japanese message of river
// gc against docs/glossary.md: no English term the glossary replaces (a
// flag such as --exclude or a scope such as eval-ledger is literal and
// allowed), no ASCII ';' or ',' in a sentence, and durations in the
// 「90 日 16 時間 24 分」 form (no 「日と」, no clock times).
func TestJapaneseFollowsTheGlossary(t *testing.T) {
	terms := bannedTerms(t)
	clock := regexp.MustCompile(`%s:%s|\d\d:\d\d:\d\d|日と`)
	stamp := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`) // an RFC 3339 example is literal
	checked := 0
	for key, v := range render.All() {
		if !riverGC(key) {
			continue
		}
		ja := v[0]
		checked++
		if strings.ContainsAny(ja, ";,") {
			t.Errorf("%s: ASCII ';' or ',' in Japanese: %q", key, ja)
		}
		if clock.MatchString(stamp.ReplaceAllString(ja, "")) {
			t.Errorf("%s: a duration not in the 「90 日 16 時間 24 分」 form: %q", key, ja)
		}
		for _, term := range terms {
			re := regexp.MustCompile(`(^|[^-\w])` + regexp.QuoteMeta(term) + `($|[^-\w])`)
			if re.MatchString(ja) {
				t.Errorf("%s: %q uses %q, which the glossary replaces", key, ja, term)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d river gc messages checked", checked)
	}
}
