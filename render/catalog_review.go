package render

// reviewMessages are the words of River Review findings and of the review
// lines (--format review): per finding kind a title, why it matters
// ("why-") and what to do ("fix-"), plus the evidence of a review line
// ("ev-"). Texts after a review line's "Evidence:" label name no file: River
// Review's verifier rejects a finding whose evidence names a file absent
// from the diff, and ours never are in it.
var reviewMessages = map[string][2]string{
	keyTitlePrefix + "no-review":                    {"NO_REVIEW: inventory / retention config が不足", "NO_REVIEW: inventory / retention config missing"},
	keyTitlePrefix + "question-invalid-retention":   {"retention 設定の不整合 (%s=%s)", "inconsistent retention setting (%s=%s)"},
	keyTitlePrefix + "question-unreliable-mtime":    {"mtimeEpoch が信頼できない", "mtimeEpoch unreliable"},
	keyTitlePrefix + "question-guards-not-supplied": {"single-source を守る hardGuards がない", "no hardGuards for the single-source"},
	keyTitlePrefix + "remove-many":                  {"%s — %s 件 (scope %s)", "%s — %s files (scope %s)"},

	"why-remove-age":   {"retention の保持期間を超えたファイルです。", "The file is older than the retention period."},
	"why-remove-count": {"scope の件数上限を超えた古いファイルです。", "The file is beyond the scope's entry limit."},
	"why-remove-size":  {"scope のサイズ上限を超えた古いファイルです。", "The file is beyond the scope's size limit."},
	"why-many":         {"件数が多いため 1 件ずつではなくまとめて報告します。", "Reported as one finding because there are many."},
	"why-guard-exclude": {"hard guard と exclude が同じファイルを指しており、設定の意図が不明確です。",
		"A hard guard and an exclude name the same file; the intent of the configuration is unclear."},
	"why-guard-retention": {"hard guard が retention の期限切れ判定と重なっており、保護が外れると削除されます。",
		"A hard guard overlaps an age verdict; without the guard the file would be deleted."},
	"why-unguarded-single-source": {"single-source が呼び出し側の hardGuards に含まれておらず、組み込みの保護だけで保持されています。",
		"The single source is kept only by the built-in protection, not by the caller's hardGuards."},
	"why-mtime-missing":      {"mtimeEpoch のないエントリは age を評価できず保持されます。", "Entries without mtimeEpoch cannot be judged by age and are kept."},
	"why-mtime-inconsistent": {"mtimeEpoch が 0 以下または未来のエントリは評価できず保持されます。", "Entries with an mtimeEpoch of 0 or less or in the future are kept unjudged."},
	"why-duplicate":          {"同じパスが複数回あり、inventory が不整合です。", "The same path occurs more than once; the inventory is inconsistent."},
	"why-aggressive":         {"REMOVE 判定が inventory の 80%% を超えており、retention が厳しすぎる可能性があります。", "REMOVE verdicts exceed 80%% of the inventory; the retention may be too aggressive."},
	"why-question-invalid-retention": {"retention が不正なため、このドキュメントは判定せず人間に引き継ぎました。",
		"The retention is invalid, so this document was not judged and is handed to a human."},
	"why-question-unreliable-mtime": {"mtimeEpoch が使えないエントリが半数を超え、この scope の削除判定を保留しました。",
		"Over half of the entries lack a usable mtimeEpoch, so this scope's removals are withheld."},
	"why-question-guards-not-supplied": {"呼び出し側が single-source を hardGuards で守っていません。",
		"The caller does not protect the single source with hardGuards."},
	"why-no-review": {"入力がゲートを通らず、何も判定していません。何も削除してはいけません。",
		"The input failed the gate; nothing was judged, and nothing may be deleted."},

	"fix-remove-age":   {"削除してよいか確認し、river gc --force で削除してください。", "Confirm and delete it with river gc --force."},
	"fix-remove-count": {"削除してよいか確認し、river gc --force で削除してください。", "Confirm and delete it with river gc --force."},
	"fix-remove-size":  {"削除してよいか確認し、river gc --force で削除してください。", "Confirm and delete it with river gc --force."},
	"fix-many":         {"全パスは --format findings の evidence と --json の removed にあります。", "The full list is in the evidence of --format findings and in removed of --json."},
	"fix-guard-exclude": {"hardGuards と excludes の一方からこのパスを外してください。",
		"Drop this path from either hardGuards or excludes."},
	"fix-guard-retention": {"保持し続けるなら hard guard を残し、retention の意図を確認してください。",
		"Keep the hard guard if the file must stay, and confirm the retention's intent."},
	"fix-unguarded-single-source": {"このパスを呼び出し側の hardGuards に追加してください。", "Add this path to the caller's hardGuards."},
	"fix-mtime-missing":           {"inventory を作るツールが全エントリに mtimeEpoch を入れるよう直してください。", "Make the inventory producer write mtimeEpoch for every entry."},
	"fix-mtime-inconsistent":      {"時計とファイルのタイムスタンプを確認し、inventory を作り直してください。", "Check the clock and the file timestamps, then rebuild the inventory."},
	"fix-duplicate":               {"inventory からパスの重複をなくしてください。", "Remove the duplicated paths from the inventory."},
	"fix-aggressive":              {"days, maxEntries, maxSizeMb が意図どおりか確認してください。", "Check that days, maxEntries and maxSizeMb are what you meant."},
	"fix-question-invalid-retention": {"retention を days ≥ 0, maxEntries ≥ 1 の整数, maxSizeMb > 0 に直して再実行してください。",
		"Set days ≥ 0, maxEntries an integer ≥ 1 and maxSizeMb > 0, then run again."},
	"fix-question-unreliable-mtime": {"inventory に正しい mtimeEpoch を入れて再実行してください。", "Give the inventory correct mtimeEpoch values and run again."},
	"fix-question-guards-not-supplied": {"呼び出し側の hardGuards にこの single-source を追加してください。",
		"Add this single source to the caller's hardGuards."},
	"fix-no-review": {"標準エラー出力の理由を読み、inventory と retention を直して再実行してください。",
		"Read the reasons on stderr, fix the inventory and retention, and run again."},

	"ev-guard":            {"同じパスが hard guard と他の設定の両方に該当します", "the same path matches a hard guard and another setting"},
	"ev-count":            {"該当 %s 件", "entries: %s"},
	"ev-aggressive":       {"REMOVE %s 件 / 全 %s 件", "remove %s of %s"},
	"ev-invalid-key":      {"不正なキー %s", "invalid key %s"},
	"ev-unreliable-mtime": {"使えない mtimeEpoch %s 件 / 全 %s 件", "unusable mtimeEpoch %s of %s"},
	"ev-guards":           {"scope %s の hardGuards に single-source がありません", "scope %s: hardGuards lack the single source"},
	"ev-no-review":        {"ゲートの理由 %s 件 (標準エラー出力)", "gate reasons: %s (on stderr)"},
	"ev-many":             {"件数 %s, 合計 sizeBytes=%s", "count %s, total sizeBytes=%s"},
}
