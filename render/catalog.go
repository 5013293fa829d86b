// Package render owns every human word plangate-gc prints: the Japanese
// review lines of SPEC A10 (and their English equivalents), the JSON of
// SPEC A11 and the wording of gate reasons.
//
// It turns judgement data into bytes and decides nothing; numbers reach it
// already computed and are printed as plain ASCII digits.
package render

import (
	"fmt"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Lang selects the language of human text.
type Lang string

// Supported languages; Japanese is the skill's contract language.
const (
	Japanese Lang = "ja"
	English  Lang = "en"
)

// Message keys. Every argument is passed as a pre-formatted string: a
// message.Printer would otherwise group digits ("1,000"), and SPEC A10
// wants plain digits.
const (
	keySummary          = "summary"
	keyGuardExclude     = "guard-exclude"
	keyGuardRetention   = "guard-retention"
	keyUnguarded        = "unguarded-single-source"
	keyMtimeMissing     = "mtime-missing"
	keyMtimeInconsist   = "mtime-inconsistent"
	keyDuplicate        = "duplicate"
	keyAggressive       = "aggressive"
	keyInvalidRetention = "invalid-retention"
	keyUnreliableMtime  = "unreliable-mtime"
	keyGuardsNotGiven   = "guards-not-supplied"
	keyRemoveAge        = "age"
	keyRemoveCount      = "count"
	keyRemoveSize       = "size"
	keyGCHeader         = "gc-header"
	keyGCScope          = "gc-scope"
	keyGCKept           = "gc-kept"
	keyGCSize           = "gc-size"
	keyGCRemoved        = "gc-removed"
	keyGCRemovedList    = "gc-removed-list"
	keyGCWouldRemove    = "gc-would-remove"
	keyGCWarning        = "gc-warning"
	keyGCQuestion       = "gc-question"
	keyGCErrors         = "gc-errors"
	keyHandoffNote      = "handoff-note"
	// keyTitlePrefix + a warning kind or "remove-<reason>" is the short
	// title of a River Review finding.
	keyTitlePrefix = "title-"
)

var messages = map[string][2]string{ // key → {ja, en}
	keySummary: {
		"scope %s: keep %s, remove %s, hard-guarded %s, excluded %s",
		"scope %s: keep %s, remove %s, hard-guarded %s, excluded %s"},
	keyGuardExclude: {
		"hard guard %s が exclude glob と重複しています。保持は維持されますが設定を整理してください。",
		"hard guard %s overlaps an exclude glob. It stays kept, but please clean up the configuration."},
	keyGuardRetention: {
		"hard guard %s が retention 設定 (age) と重複しています。保持は維持されますが設定を整理してください。",
		"hard guard %s overlaps the retention setting (age). It stays kept, but please clean up the configuration."},
	keyUnguarded: {
		"single-source %s が hardGuards に含まれていないため、組み込みの保護で保持しました。",
		"single-source %s is not in hardGuards; kept by the built-in protection."},
	keyMtimeMissing: {
		"mtimeEpoch が欠けている %s 件を評価から除外しました (例: %s)。",
		"entries without mtimeEpoch excluded from evaluation: %s (e.g. %s)."},
	keyMtimeInconsist: {
		"mtimeEpoch が 0 以下または未来値の %s 件を inventory 不整合として評価から除外しました (例: %s)。",
		"entries whose mtimeEpoch is 0 or less or in the future, excluded from evaluation as inventory inconsistencies: %s (e.g. %s)."},
	keyDuplicate: {
		"同一パスが重複している %s 件を inventory 不整合として評価から除外しました (例: %s)。",
		"duplicated paths excluded from evaluation as inventory inconsistencies: %s (e.g. %s)."},
	keyAggressive: {
		"scope %s で REMOVE 判定が inventory の 80%% を超えています (%s/%s)。retention が過度に攻撃的な可能性があります。",
		"in scope %s, REMOVE verdicts exceed 80%% of the inventory (%s/%s). The retention may be too aggressive."},
	keyInvalidRetention: {
		"retention 設定が不整合です (%s=%s)。評価を行わずに人間の確認を求めます。",
		"the retention setting is inconsistent (%s=%s). Asking a human to confirm without evaluating."},
	keyUnreliableMtime: {
		"mtimeEpoch が使用できないエントリが inventory の 50%% を超えています (%s/%s)。age 判定が信頼できないため削除判定を保留します。",
		"entries without a usable mtimeEpoch exceed 50%% of the inventory (%s/%s). The age policy is unreliable, so removal verdicts are withheld."},
	keyGuardsNotGiven: {
		"scope %s の single-source (%s) を保護する hardGuards が渡されていません。呼び出し側の設定を確認してください。",
		"scope %s: no hardGuards protecting its single-source (%s) were passed. Please check the caller's configuration."},
	keyRemoveAge: {
		"reason=age, sizeBytes=%s, mtimeAge=%s日",
		"reason=age, sizeBytes=%s, mtimeAge=%s days"},
	keyRemoveCount: {
		"reason=count, sizeBytes=%s, rank=%s",
		"reason=count, sizeBytes=%s, rank=%s"},
	keyRemoveSize: {
		"reason=size, sizeBytes=%s, cumulativeBytes=%s",
		"reason=size, sizeBytes=%s, cumulativeBytes=%s"},
	keyGCHeader: {
		"river gc (%s) — retention: %s 日 / %s 件 / %s MB (scope ごと), 基準時刻 %s",
		"river gc (%s) — retention: %s days / %s entries / %s MB per scope, now %s"},
	keyGCScope:       {"scope", "scope"},
	keyGCKept:        {"保持", "kept"},
	keyGCSize:        {"サイズ", "size"},
	keyGCRemoved:     {"削除", "removed"},
	keyGCRemovedList: {"削除したファイル (%s 件):", "removed (%s):"},
	keyGCWouldRemove: {"削除候補 (%s 件, dry-run のため未削除):", "would remove (%s, dry-run: nothing deleted):"},
	keyGCWarning:     {"警告", "warning"},
	keyGCQuestion:    {"要確認", "question"},
	keyGCErrors:      {"エラー %s 件 (標準エラー出力に記載)", "errors: %s (listed on stderr)"},
	keyHandoffNote: {
		"handoff: 削除判定を保留し、人間の確認を求めます。",
		"handoff: removal verdicts are withheld; asking a human to confirm."},
	keyTitlePrefix + "remove-age":              {"REMOVE: 保持期間 (age) 超過", "REMOVE: older than the retention (age)"},
	keyTitlePrefix + "remove-count":            {"REMOVE: 件数上限 (count) 超過", "REMOVE: beyond the entry limit (count)"},
	keyTitlePrefix + "remove-size":             {"REMOVE: サイズ上限 (size) 超過", "REMOVE: beyond the size limit (size)"},
	keyTitlePrefix + "guard-exclude":           {"hard guard と exclude glob の重複", "hard guard overlaps an exclude glob"},
	keyTitlePrefix + "guard-retention":         {"hard guard と retention (age) の重複", "hard guard overlaps the retention (age)"},
	keyTitlePrefix + "unguarded-single-source": {"hardGuards にない single-source", "single-source missing from hardGuards"},
	keyTitlePrefix + "mtime-missing":           {"mtimeEpoch の欠落", "missing mtimeEpoch"},
	keyTitlePrefix + "mtime-inconsistent":      {"mtimeEpoch の不整合", "inconsistent mtimeEpoch"},
	keyTitlePrefix + "duplicate":               {"重複したパス", "duplicated paths"},
	keyTitlePrefix + "aggressive":              {"過度に攻撃的な retention", "overly aggressive retention"},
}

var printers = func() map[Lang]*message.Printer {
	b := catalog.NewBuilder(catalog.Fallback(language.Japanese))
	for key, texts := range messages {
		for i, tag := range []language.Tag{language.Japanese, language.English} {
			if err := b.SetString(tag, key, texts[i]); err != nil {
				panic(fmt.Sprintf("render: catalog %s: %v", key, err))
			}
		}
	}
	return map[Lang]*message.Printer{
		Japanese: message.NewPrinter(language.Japanese, message.Catalog(b)),
		English:  message.NewPrinter(language.English, message.Catalog(b)),
	}
}()

// printer returns the printer for lang, Japanese when lang is unknown.
func printer(lang Lang) *message.Printer {
	if p, ok := printers[lang]; ok {
		return p
	}
	return printers[Japanese]
}
