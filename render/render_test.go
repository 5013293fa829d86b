package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/skill"
)

func TestAppendStringIsValidJSON(t *testing.T) {
	for _, s := range []string{"plain", `quote " and \ backslash`, "a<b>&c", "tab\tnl\ncr\r", "\x00\x1f", "日本語 é", "\u2028", "bad\xffbyte"} {
		b := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, b, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want {
			t.Errorf("%q round-trips to %q", s, back)
		}
		if bytes.Contains(b, []byte(`\u003c`)) {
			t.Errorf("%q: HTML-escaped: %s", s, b)
		}
	}
}

// TestNumbersArePlainDigits: message.Printer would group digits in English
// ("1,000"); SPEC A10 wants plain digits in every language.
func TestNumbersArePlainDigits(t *testing.T) {
	res := skill.Result{Status: skill.StatusOK, Scope: skill.ScopeTmp, Evaluated: true,
		Counts: skill.Counts{Keep: 12345, Remove: 67890},
		Warnings: []skill.Warning{{Kind: skill.WarnAggressive, Remove: 67890, Total: 80235},
			{Kind: skill.WarnMtimeMissing, N: 1000, First: ".river/tmp/a"}},
		Removed: []skill.Decision{{Path: ".river/tmp/b", SizeBytes: 1234567, Reason: skill.ReasonAge, MtimeAge: 1000}}}
	for _, lang := range []Lang{Japanese, English} {
		var out bytes.Buffer
		if err := Text(&out, Document{Result: res}, lang); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		for _, want := range []string{"keep 12345, remove 67890", "67890/80235", "1000", "sizeBytes=1234567"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s output lacks %q:\n%s", lang, want, text)
			}
		}
		if strings.Contains(text, "12,345") || strings.Contains(text, "1,000") {
			t.Errorf("%s output groups digits:\n%s", lang, text)
		}
	}
}

// TestTemplatesMatchSpec pins the Japanese lines of SPEC A10 character for
// character (the fixtures pin them too, in context).
func TestTemplatesMatchSpec(t *testing.T) {
	scope := skill.ScopeMemory
	for _, tc := range []struct{ got, want string }{
		{WarningMessage(skill.Warning{Kind: skill.WarnGuardExclude, Path: "P"}, scope, Japanese),
			"hard guard P が exclude glob と重複しています。保持は維持されますが設定を整理してください。"},
		{WarningMessage(skill.Warning{Kind: skill.WarnGuardRetention, Path: "P"}, scope, Japanese),
			"hard guard P が retention 設定 (age) と重複しています。保持は維持されますが設定を整理してください。"},
		{WarningMessage(skill.Warning{Kind: skill.WarnUnguardedSingleSource, Path: "P"}, scope, Japanese),
			"single-source P が hardGuards に含まれていないため、組み込みの保護で保持しました。"},
		{WarningMessage(skill.Warning{Kind: skill.WarnMtimeMissing, N: 2, First: "F"}, scope, Japanese),
			"mtimeEpoch が欠けている 2 件を評価から除外しました (例: F)。"},
		{WarningMessage(skill.Warning{Kind: skill.WarnMtimeInconsistent, N: 2, First: "F"}, scope, Japanese),
			"mtimeEpoch が 0 以下または未来値の 2 件を inventory 不整合として評価から除外しました (例: F)。"},
		{WarningMessage(skill.Warning{Kind: skill.WarnDuplicate, N: 2, First: "F"}, scope, Japanese),
			"同一パスが重複している 2 件を inventory 不整合として評価から除外しました (例: F)。"},
		{WarningMessage(skill.Warning{Kind: skill.WarnAggressive, Remove: 9, Total: 10}, scope, Japanese),
			"scope memory で REMOVE 判定が inventory の 80% を超えています (9/10)。retention が過度に攻撃的な可能性があります。"},
		{QuestionMessage(skill.Question{Kind: skill.QuestionInvalidRetention, Key: "days", Literal: "-1.5e0"}, scope, Japanese),
			"retention 設定が不整合です (days=-1.5e0)。評価を行わずに人間の確認を求めます。"},
		{QuestionMessage(skill.Question{Kind: skill.QuestionUnreliableMtime, N: 3, Total: 5}, scope, Japanese),
			"mtimeEpoch が使用できないエントリが inventory の 50% を超えています (3/5)。age 判定が信頼できないため削除判定を保留します。"},
		{QuestionMessage(skill.Question{Kind: skill.QuestionGuardsNotSupplied, Path: "S"}, scope, Japanese),
			"scope memory の single-source (S) を保護する hardGuards が渡されていません。呼び出し側の設定を確認してください。"},
		{QuestionMessage(skill.Question{Kind: skill.QuestionGuardsNotSupplied, Path: "S"}, scope, English),
			"scope memory: no hardGuards protecting its single-source (S) were passed. Please check the caller's configuration."},
		{RemoveMessage(skill.Decision{Reason: skill.ReasonAge, SizeBytes: 1, MtimeAge: 120}, Japanese), "reason=age, sizeBytes=1, mtimeAge=120日"},
		{RemoveMessage(skill.Decision{Reason: skill.ReasonCount, SizeBytes: 1, Rank: 7}, Japanese), "reason=count, sizeBytes=1, rank=7"},
		{RemoveMessage(skill.Decision{Reason: skill.ReasonSize, SizeBytes: 1, Cumulative: skill.Bytes{}.Add(99)}, Japanese), "reason=size, sizeBytes=1, cumulativeBytes=99"},
		{NoReview, "NO_REVIEW: plangate-gc-deterministic \u2014 inventory / retention config が不足"},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %q\nwant %q", tc.got, tc.want)
		}
	}
}
