package catalog

// planMessages are the words of a reviewed plan (SPEC Part J): --plan-out,
// --apply, and why a planned item was not deleted. Register adds them to
// the catalog.
var planMessages = map[string][2]string{ // key → {ja, en}
	"gc-cfg-plan-force": {
		"--plan-out は計画を書くだけで何も削除しません: --force を外してください (計画は --force --apply PLAN で適用します)",
		"--plan-out writes a plan and deletes nothing: drop --force (apply the plan with --force --apply PLAN)"},
	"gc-cfg-plan-apply": {"--plan-out と --apply は同時に使えません", "--plan-out and --apply cannot be used together"},
	"gc-cfg-plan-same":  {"--plan-out に %s と同じファイルは使えません", "--plan-out cannot be the same file as %s"},
	"gc-cfg-apply-flag": {
		"%s は --apply と同時に使えません: スコープ、ポリシー、--keep-within、--now、--timestamp は計画のものを使います (--exclude は追加できます)",
		"%s cannot be used with --apply: the plan fixes the scopes, the policy, --keep-within, --now and --timestamp (an --exclude may be added)"},
	"gc-cfg-plan-read":       {"計画 %s を読めません: %s", "cannot read the plan %s: %s"},
	"gc-cfg-plan-unreadable": {"%s は river gc の計画ではありません: %s", "%s is not a river gc plan: %s"},
	"gc-cfg-plan-version": {
		"%s は計画の形式バージョン %s です。この river gc が適用できるのは %s です: 計画を作り直してください",
		"%s is a plan of format version %s; this river gc applies format version %s: make a new plan"},
	"gc-cfg-plan-digest": {
		"%s は書かれた後に変更されています (ダイジェストが一致しません)。何も削除していません: 計画を作り直してください",
		"%s was changed after it was written (its digest does not match); nothing was deleted: make a new plan"},
	"gc-cfg-plan-root": {
		"%s はルート %s の計画で、%s の計画ではありません",
		"%s is a plan for the root %s, not for %s"},
	"gc-plan-written": {
		"計画を %s に書きました: 削除 %s 件、%s",
		"plan written to %s: %s removals, %s"},
	"gc-plan-applying":    {"計画 %s (%s 項目) を適用します", "applying the plan %s (%s items)"},
	"gc-err-op-plan":      {"計画にありますが削除していません: %s", "planned, not deleted: %s"},
	"gc-err-plan-changed": {"計画の後に変更されました: %s", "changed since planned: %s"},
	"gc-err-plan-kept":    {"いまは%s", "it is now %s"},
	"gc-plan-rule-tracked": {
		"git で追跡されているか、.gitkeep/.keep です", "tracked in git, or a .gitkeep/.keep placeholder"},
	"gc-plan-rule-excluded":        {"--exclude で除外されています", "excluded by --exclude"},
	"gc-plan-rule-guarded":         {"単一の情報源 (またはその指す先) です", "a single source (or what one points to)"},
	"gc-plan-rule-live":            {"生きているエントリです", "a live entry"},
	"gc-plan-rule-newest-two":      {"台帳の最新 2 行のひとつです", "one of the ledger's newest two lines"},
	"gc-plan-rule-unreadable-line": {"読めない台帳の行です", "an unreadable ledger line"},
	"gc-plan-rule-fresh":           {"--keep-within より新しいものです", "younger than --keep-within"},
	"gc-plan-rule-policy":          {"ポリシーで保持されます (%s)", "kept by the policy (%s)"},
	"gc-warn-plan-applied": {
		"計画の %s 項目はすべてすでにありません: この計画は適用済みです。何も削除していません",
		"all %s items of the plan are gone already: this plan was applied before; nothing was deleted"},
	"gc-warn-plan-gone": {
		"計画の %s 項目のうち %s 項目はすでにありません (最初: %s)",
		"of the plan's %s items, %s were gone already (first: %s)"},
	"gc-warn-not-planned": {
		"いまポリシーが削除する %s 件は計画にないため保持しました (最初: %s)。新しい計画に載ります",
		"%s files or entries the policy removes now are not in the plan and were kept (first: %s); a new plan lists them"},
}
