// Package render owns every human word plangate-gc prints: the Japanese
// review lines of SPEC A10 (and their English equivalents), the JSON of
// SPEC A11 and the wording of gate reasons. Its catalog is the project's
// one ja/en catalog: river gc's words register into it from their own
// package (internal/rivergc/catalog, Register).
//
// It turns judgement data into bytes and decides nothing; numbers reach it
// already computed and are printed as plain ASCII digits.
package render

import (
	"fmt"
	"slices"
	"strings"
	"sync"

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
	keyGCQuestion       = "gc-question"
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
	keyGCQuestion:     {"要確認", "question"},
	"eval-summary":    {"成功 %s 件、失敗 %s 件", "%s passed, %s failed"},
	"pgc-usage-error": {"plangate-gc: 使い方の誤り: %s (--help を参照してください)", "plangate-gc: %s (see --help)"},
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

// The catalog is render's own parts and those other packages register:
// river gc's words live apart from the skill's renderer
// (internal/rivergc/catalog) but in this one catalog, worded by Message.
var (
	mu    sync.Mutex
	parts = []map[string][2]string{messages, reviewMessages}
	built bool // a message was worded: the catalog is closed
)

// Register adds part's messages to the catalog. A package whose words
// live apart from render calls it from its init, before anything is
// worded; a key already in the catalog, or a call once a message was
// worded, is a programming error and panics.
func Register(part map[string][2]string) {
	mu.Lock()
	defer mu.Unlock()
	if built {
		panic("render: Register after the catalog was built")
	}
	for _, p := range parts {
		for k := range part {
			if _, dup := p[k]; dup {
				panic("render: catalog key registered twice: " + k)
			}
		}
	}
	parts = append(parts, part)
}

// printers are the catalog's printers, built at the first message.
var printers = sync.OnceValue(func() map[Lang]*message.Printer {
	mu.Lock()
	built = true
	mu.Unlock()
	b := catalog.NewBuilder(catalog.Fallback(language.Japanese))
	for key, texts := range all() {
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
})

// all is the whole catalog: the review-line words, every other one of
// render's and every registered part.
func all() map[string][2]string {
	mu.Lock()
	defer mu.Unlock()
	m := map[string][2]string{}
	for _, part := range parts {
		for k, v := range part {
			m[k] = v
		}
	}
	return m
}

// Keys lists, sorted, the catalog's keys that start with prefix, so that
// the tests of a family of messages worded as prefix+kind ("gc-warn-",
// "gc-cfg-pattern-") word every one of them, a new one included.
func Keys(prefix string) []string {
	var keys []string
	for k := range all() {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// printer returns the printer for lang, Japanese when lang is unknown.
func printer(lang Lang) *message.Printer {
	if p, ok := printers()[lang]; ok {
		return p
	}
	return printers()[Japanese]
}
