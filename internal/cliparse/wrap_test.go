package cliparse

import (
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/alecthomas/kong"
)

// noSpace is s without its white space: what wrapping must keep.
func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// TestWrapLineJapanese (decision 244): a line wider than the width is
// broken by columns (a wide character is two), at a space, after 、 or 。,
// or between wide characters, never before 、。） nor after （; the
// continuation starts at the text's column (a flag's description, an
// example's comment); nothing but white space changes; a word wider than
// the line stays whole.
func TestWrapLineJapanese(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		w          int
		want       string
	}{
		{"fits", "あいう", 6, "あいう"},
		{"between wide characters", "あいうえお", 6, "あいう\nえお"},
		{"after 、", "あい、うえ", 6, "あい、\nうえ"},
		{"no line starts with 。", "あいう。え", 6, "あい\nう。え"},
		{"no line starts with ）", "あ（いう）え", 8, "あ（い\nう）え"},
		{"no line ends with （", "あい（うえ", 6, "あい\n（うえ"},
		{"at a space, dropped", "abc def ghi", 8, "abc def\nghi"},
		{"a flag's description column", "  --x=N    あいうえおかきくけこ", 20, "  --x=N    あいうえ\n           おかきく\n           けこ"},
		{"an example's comment", "    cmd  # あいうえおかき", 20, "    cmd  # あいうえ\n           おかき"},
		{"one long word stays", "abcdefghijkl", 5, "abcdefghijkl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapLine(tc.line, tc.w)
			if got != tc.want {
				t.Errorf("wrapLine(%q, %d) =\n%s\nwant\n%s", tc.line, tc.w, got, tc.want)
			}
			if noSpace(got) != noSpace(tc.line) {
				t.Errorf("wrapping changed more than white space: %q", got)
			}
		})
	}
}

// japaneseGrammar is a command whose help is Japanese.
type japaneseGrammar struct {
	RetentionDays int    `name:"retention-days" help:"N 日より古いエントリを削除します (既定 90。成果物のメタデータのタイムスタンプ、なければ mtime)。SCOPE=N で 1 つのスコープだけ (繰り返し可)。"`
	Exclude       string `help:"この .gitignore 形式のグロブに一致するパスを保護します。ルートからの相対パスです (./x とルート内の絶対パスは正規化します。繰り返し可)。"`
}

// TestWrapWideKeepsJapaneseHelpInTheTerminal: through kong, every line
// of the Japanese help fits the width (COLUMNS) that kong alone overran,
// and the help says the same (white space aside).
func TestWrapWideKeepsJapaneseHelpInTheTerminal(t *testing.T) {
	const desc = "River Review の成果物を決定的にガベージコレクションします。.river/memory/、artifacts/evals/ と一時ディレクトリを走査し、保持ポリシーを適用し、--force のときだけ削除します。"
	help := func(options ...kong.Option) string {
		var out strings.Builder
		var g japaneseGrammar
		_, done, err := Parse(&g, []string{"--help"}, append(options, kong.Name("x"), kong.Description(desc), kong.Writers(&out, new(strings.Builder)))...)
		if !done || err != nil {
			t.Fatalf("--help: done %v, %v", done, err)
		}
		return out.String()
	}
	for _, w := range []string{"80", "50"} {
		t.Run(w, func(t *testing.T) {
			t.Setenv("COLUMNS", w)
			plain, wrapped := help(), help(kong.Help(WrapWide))
			limit, _ := strconv.Atoi(w)
			wide := false
			for line := range strings.Lines(plain) {
				wide = wide || cols(strings.TrimSuffix(line, "\n")) > limit
			}
			if !wide {
				t.Errorf("kong alone keeps within %d columns: the case shows nothing", limit)
			}
			for line := range strings.Lines(wrapped) {
				if c := cols(strings.TrimSuffix(line, "\n")); c > limit {
					t.Errorf("%d columns, wider than %d: %q", c, limit, line)
				}
			}
			if noSpace(plain) != noSpace(wrapped) {
				t.Errorf("the wrapped help says something else:\n%s\nkong's:\n%s", wrapped, plain)
			}
		})
	}
}
