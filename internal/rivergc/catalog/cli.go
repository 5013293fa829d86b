package catalog

// cliMessages are the words of river-gc's command line that forgive a
// user's habits (short flags of other tools, "7d", "tmp:7", a glob the
// shell expanded) and its warnings about the flags themselves (SPEC B7).
// Register adds them to the catalog.
var cliMessages = map[string][2]string{ // key → {ja, en}
	"gc-cfg-short-flag": {
		"不明なフラグ %s。river-gc の短いフラグは -h だけです。%s と書いてください",
		"unknown flag %s: river-gc's only short flag is -h; write %s"},
	"gc-cfg-gc-word": {
		"river-gc はそれ自体が river gc です。gc を省いてください: %s",
		"river-gc is already river gc; leave out gc: %s"},
	"gc-cfg-unexpected": {
		"余分な引数 %s があります。river-gc は引数を取りません",
		"unexpected argument %s: river-gc takes no arguments"},
	"gc-cfg-expanded-glob": {
		"余分な引数 %s があります。シェルがグロブを展開したようです (%s 個のファイル名)。パターンを引用符で囲んでください: --exclude '%s'",
		"unexpected argument %s: the shell seems to have expanded a glob (%s file names); quote the pattern: --exclude '%s'"},
	"gc-cfg-days-implied": {
		"%s %s: 単位は日で決まっています。数だけを書いてください: %s %s",
		"%s %s: days are implied; write the number alone: %s %s"},
	"gc-cfg-colon": {
		"%s %s: スコープと値は = でつなぎます: %s %s",
		"%s %s: join the scope and the value with =: %s %s"},
	"gc-cli-warn-policy-unselected": {
		"%s %s: スコープ %s は選択されていないため、この値は使われません (--scope %s で選択できます)",
		"%s %s: scope %s is not selected, so this value is not used (select it with --scope %s)"},
	"gc-cli-warn-policy-repeated": {
		"%s: スコープ %s に値が 2 回以上指定されています。最後の %s を使います",
		"%s: scope %s is given more than once; the last, %s, is used"},
	"gc-cli-warn-scope-repeated": {
		"--scope %s が 2 回以上指定されています。1 回で十分です",
		"--scope %s is given more than once; once is enough"},
	"gc-cfg-locked-by": {
		"別の river gc --force 実行 (pid %s、開始 %s、ホスト %s) がこのルートのロックを保持しています。何も変更していません",
		"another river gc --force run (pid %s, started %s, host %s) holds the lock on this root; nothing was changed"},
	"gc-verdict-outside-root": {"→ ルート %s の外です。river gc はルートの中だけを判定します", "→ outside the root %s; river gc judges only what is inside it"},
	"gc-explain-opt-in": {
		"(スコープ %[1]s がこのパスを対象にしますが、選択されていません。判定するには --scope %[1]s を付けてください)",
		"(scope %[1]s covers this path but is not selected; add --scope %[1]s to judge it)"},
	"gc-explain-entries-off-id": {
		"(スコープ %[2]s はこのストアのエントリを %[1]s#ID として判定します: --scope %[2]s)",
		"(scope %[2]s judges this store's entries as %[1]s#ID: --scope %[2]s)"},
	"gc-explain-entries-off-line": {
		"(スコープ %[2]s はこの台帳の行を %[1]s#行番号 として判定します: --scope %[2]s)",
		"(scope %[2]s judges this ledger's lines as %[1]s#LINE: --scope %[2]s)"},
	"gc-explain-entries-on-id": {
		"(エントリはスコープ %[2]s が %[1]s#ID として判定します。1 件の判定は --explain '%[1]s#ID' で確認できます)",
		"(its entries are judged by scope %[2]s as %[1]s#ID; --explain '%[1]s#ID' explains one)"},
	"gc-explain-entries-on-line": {
		"(行はスコープ %[2]s が %[1]s#行番号 として判定します。1 行の判定は --explain '%[1]s#行番号' で確認できます)",
		"(its lines are judged by scope %[2]s as %[1]s#LINE; --explain '%[1]s#LINE' explains one)"},
	"gc-unused-exclude-root": {
		"--exclude %s はどのファイルにも一致しませんでした。パターンは現在のディレクトリではなくルート %s からの相対パスです。パターンの綴りとスコープを確認してください。",
		"--exclude %s matched no file of the selected scopes; patterns are relative to the root %s, not to the current directory: check the pattern's spelling and the scopes."},
	"gc-reach": {
		"River Review のストアにも削除できるものがありますが、選択されたスコープには含まれません。対象にするには %s を付けてください (まず dry-run で確認できます):",
		"River Review's stores hold more to reclaim, outside the selected scopes; add %s to reach it (a dry-run shows it first):"},
	"gc-reach-scope":          {"スコープ %s: %s (%s)", "scope %s: %s (%s)"},
	"gc-protected-list":       {"保護されたファイル (%s 件、経過日数にかかわらず保持):", "protected (%s, kept whatever their age):"},
	"gc-col-rule":             {"規則", "rule"},
	"gc-rule-guarded":         {"正本", "single source"},
	"gc-rule-live":            {"生きているエントリ", "live entry"},
	"gc-rule-newest-two":      {"台帳の最後の 2 行", "newest two lines"},
	"gc-rule-unreadable-line": {"読めない行", "unreadable line"},
	"gc-rule-excluded":        {"--exclude", "--exclude"},
	"gc-rule-tracked":         {"git 管理下", "tracked in git"},
	"gc-rule-fresh":           {"新しい (--keep-within)", "fresh (--keep-within)"},
	"gc-verdict-fresh": {
		"→ 保持: --keep-within (%[2]s) より新しい (経過 %[1]s) ため、どの上限でも削除しません",
		"→ keep: %s old, younger than --keep-within (%s); no limit removes it"},
	"gc-run-dirs-dry-run": {
		"評価実行のディレクトリ %s 個 (%s など) は削除で空になるため、--force で一緒に削除します (空のディレクトリだけ)",
		"eval-run directories this run would empty: %s (e.g. %s); --force removes them with it (empty directories only)"},
	"gc-run-dirs-force": {
		"空になった評価実行のディレクトリ %s 個 (%s など) を削除しました",
		"eval-run directories this run emptied, removed: %s (e.g. %s)"},
	"gc-run-dirs-stay": {
		"空になった評価実行のディレクトリ %s 個 (%s など) は残しました (判定後に変わったか削除できません)",
		"eval-run directories this run emptied that stay: %s (e.g. %s; changed since judged, or not removable)"},
	"gc-cli-warning":   {"river gc: 警告: %s", "river gc: warning: %s"},
	"gc-count-file":    {"ファイル %s 件", "%s file"},
	"gc-count-files":   {"ファイル %s 件", "%s files"},
	"gc-count-entry":   {"メモリエントリ %s 件", "%s memory entry"},
	"gc-count-entries": {"メモリエントリ %s 件", "%s memory entries"},
	"gc-count-line":    {"台帳の行 %s 件", "%s ledger line"},
	"gc-count-lines":   {"台帳の行 %s 件", "%s ledger lines"},
	"gc-count-items":   {"計 %s 件: %s", "%s items: %s"},
	"gc-count-sep":     {"、", ", "},
	"gc-warn-fresh-removed": {
		"スコープ %s: 24 時間以内のファイル %s 件を経過日数ではなく%sの上限で削除します (最も新しい %s は経過 %s)。残すには、このスコープの上限を上げてください: %s (または --keep-within 24h で 24 時間以内のものをすべて残せます)",
		"scope %s: %s files younger than 24 hours go by the %s limit, not by age (the youngest, %s, is %s old); to keep them, raise the limit for this scope: %s (or keep everything younger than 24 hours with --keep-within 24h)"},
	"gc-limit-count":      {"件数", "count"},
	"gc-limit-size":       {"サイズ", "size"},
	"gc-limit-count,size": {"件数とサイズ", "count and size"},
	"gc-flag-count":       {"--max-entries %s=N", "--max-entries %s=N"},
	"gc-flag-size":        {"--max-size-mb %s=N", "--max-size-mb %s=N"},
	"gc-flag-count,size":  {"--max-entries %s=N と --max-size-mb %s=N", "--max-entries %s=N and --max-size-mb %s=N"},
	"gc-dur-day":          {"%s 日", "%s day"},
	"gc-dur-days":         {"%s 日", "%s days"},
	"gc-dur-h":            {"%s 時間", "%s h"},
	"gc-dur-min":          {"%s 分", "%s min"},
	"gc-dur-s":            {"%s 秒", "%s s"},
}
