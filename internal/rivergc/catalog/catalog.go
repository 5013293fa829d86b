// Package catalog holds river gc's words, Japanese and English: its
// summary, record, warnings, errors, --explain, progress, config errors
// and plan (every "gc-" key but the question label the skill's review
// lines share). They live apart from the skill's renderer but in its one
// catalog: importing this package registers them with render, and
// render.Message words them like any other. It decides nothing and
// imports render alone, so it builds on every system (river-gc's "Linux
// only" message is here too).
package catalog

import "github.com/plangate-gc/plangate-gc/render"

func init() {
	for _, part := range []map[string][2]string{reportMessages, cliMessages, configMessages, planMessages, recordMessages} {
		render.Register(part)
	}
}

// reportMessages are the words of river gc's report (package report):
// the summary's header and table, totals, removals, warnings, errors,
// notes, --explain, --summary-file and progress.
var reportMessages = map[string][2]string{ // key → {ja, en}
	"gc-header": {
		"river gc (%s): スコープごとの保持ポリシーは保持期間 %s 日、最大 %s 件、最大 %s MiB。基準時刻 %s",
		"river gc (%s) — retention per scope: age limit %s d, at most %s entries, at most %s MiB; now %s"},
	"gc-header-scope": {
		"  スコープ %s だけ: 保持期間 %s 日、最大 %s 件、最大 %s MiB",
		"  scope %s only: age limit %s d, at most %s entries, at most %s MiB"},
	"gc-scope":        {"スコープ", "scope"},
	"gc-kept":         {"保持", "kept"},
	"gc-size":         {"サイズ", "size"},
	"gc-removed":      {"削除", "removed"},
	"gc-removed-list": {"削除したファイル (%s 件):", "removed (%s):"},
	"gc-would-remove": {"削除候補 (%s 件、dry-run のため未削除):", "would remove (%s, dry-run: nothing deleted):"},
	"gc-warning":      {"警告", "warning"},
	"gc-errors":       {"エラー %s 件 (標準エラー出力に記載)", "errors: %s (listed on stderr)"},
	"gc-linux-only":   {"river-gc は Linux でのみ動作します (%s では何も削除しません)。plangate-gc はどの OS でも動作します。", "river-gc runs on Linux only (nothing is touched on %s); plangate-gc runs everywhere."},
	// river gc (package report): totals, tables, removals, warnings,
	// errors, notes, --explain, --summary-file and progress.
	"gc-total-force":     {"合計 %s (%s) を削除しました", "Total reclaimed space: %s, %s"},
	"gc-debug-root":      {"ルート: %s", "root: %s"},
	"gc-total-linked":    {"うち %s (%s ファイル) は他のハードリンクが残るため解放されていません", "not freed: %s in %s files still held by other hard links"},
	"gc-total-dry-run":   {"合計 %s (%s) を削除できます (dry-run のため未削除)", "Total reclaimable space: %s, %s (dry-run: nothing deleted)"},
	"gc-protected":       {"保護", "protected"},
	"gc-guarded":         {"組み込み保護", "guarded"},
	"gc-excluded":        {"除外", "excluded"},
	"gc-tracked":         {"git 管理", "tracked"},
	"gc-col-path":        {"パス", "path"},
	"gc-col-reason":      {"理由", "reason"},
	"gc-col-age":         {"経過日数", "age (days)"},
	"gc-col-timestamp":   {"タイムスタンプ", "timestamp"},
	"gc-col-source":      {"由来", "source"},
	"gc-more":            {"… ほか %s 件 (全件は --json または --verbose)", "… and %s more (see --json or --verbose)"},
	"gc-md-title":        {"river gc の結果", "river gc summary"},
	"gc-md-more":         {"… ほか %s 件 (全件は JSON 結果を参照)", "… and %s more (the full list is in the JSON result)"},
	"gc-md-warnings":     {"警告", "Warnings"},
	"gc-md-errors":       {"エラー", "Errors"},
	"gc-progress-scan":   {"走査中: %s ファイル", "scanning: %s files"},
	"gc-progress-delete": {"削除中: %s/%s", "deleting %s/%s"},
	"gc-warn-dangling-single-source": {
		"正本のシンボリックリンク %s の参照先 %s が存在しません。リンクを張り直すか削除してください。",
		"the single source symlink %s points to %s, which does not exist; fix or remove the link."},
	"gc-warn-single-source-outside-root": {
		"正本のシンボリックリンク %s がルート外の %s を指しているため、ここでは何も保護しません。ルート内を指すようにしてください。",
		"the single source symlink %s points outside the root (%s), so it protects nothing here; point it inside the root."},
	"gc-warn-single-source-loop": {
		"正本のシンボリックリンク %s (%s) はリンクの連鎖がループしているため、何も保護しません。リンクを張り直してください。",
		"the single source symlink %s (%s) is a loop of links, so it protects nothing; fix the link."},
	"gc-warn-single-source-not-a-directory": {
		"正本のシンボリックリンク %s (%s) はディレクトリでないものに行き当たります。リンクを張り直してください。",
		"the single source symlink %s (%s) runs into something that is not a directory; fix the link."},
	"gc-warn-single-source-undecided": {
		"正本のシンボリックリンク %s (%s) の参照先がルート内か判定できません (%s)。%s 全体を保護しました。",
		"cannot tell whether the single source symlink %s (%s) points inside the root (%s), so all of %s is kept."},
	"gc-warn-nested-repo": {
		"スコープ %s: 独自の .git を持つディレクトリ %s 件は別のリポジトリなので、中に入らず何も削除しません (最初: %s)。",
		"scope %s: directories holding their own .git are other repositories, never entered and never cleaned: %s (first: %s)."},
	"gc-warn-unused-exclude": {
		"--exclude %s はどのファイルにも一致しませんでした。パターンの綴りとスコープを確認してください。",
		"--exclude %s matched no file of the selected scopes; check the pattern's spelling and the scopes."},
	"gc-warn-unjudgeable-name": {
		"スコープ %s: エンジンが判定できない名前のファイル %s 件を保持しました (最初: %s)。名前を変更すると判定対象になります。",
		"scope %s: files kept because the engine cannot judge their names: %s (first: %s); rename them to have them judged."},
	"gc-warn-unreadable-entry": {
		"スコープ %s: 読めない行 %s 件を保持しました (最初: %s)。timestamp が JavaScript の Date で確実に読める ISO 形式 (RFC 3339 の閏秒を除く) の JSON オブジェクトの行だけが判定されます。",
		"scope %s: unreadable lines kept: %s (first: %s); only a JSON object whose timestamp JavaScript's Date reads for certain (ISO 8601 with an offset, or a date; not a leap second) is judged."},
	"gc-warn-undecided-entry": {
		"スコープ %s: River Review の読み方を river gc が再現できない値 (有効期限など) を持つエントリ %s 件を保持しました (最初: %s)。",
		"scope %s: entries kept because a value deciding them (an expiry) is one river gc cannot read as River Review does: %s (first: %s)."},
	"gc-warn-future-timestamp": {
		"スコープ %s: タイムスタンプが未来 (--now より後) のファイル %s 件を保持しました (最初: %s)。時計またはメタデータを確認してください。",
		"scope %s: files kept with a timestamp in the future (after --now): %s (first: %s); check the clock or the metadata."},
	"gc-warn-unusable-timestamp": {
		"スコープ %s: タイムスタンプが 1970 年以前で使えないファイル %s 件を保持しました (最初: %s)。mtime またはメタデータを確認してください。",
		"scope %s: files kept with a timestamp at or before 1970, which is unusable: %s (first: %s); check the mtimes or the metadata."},
	"gc-warn-aggressive": {
		"スコープ %s: 削除判定 %s 件 / 全 %s 件 (80%% 超)。保持ポリシーが厳しすぎないか確認してください。",
		"scope %s: removals %s of %s (more than 80%%); check that the retention is not too aggressive."},
	"gc-warn-unprotected-delete": {
		"%s 件を rename による保護なしで削除しました。名前が長すぎるか、renameat2 非対応のファイルシステムです。",
		"files deleted without the rename-then-check protection: %s (a name too long for the private name, or a file system without renameat2)."},
	"gc-warn-restored": {
		"中断された以前の実行が残した %s 件を元の名前に戻しました (最初: %s)。",
		"files put back from the private names an interrupted run left: %s (first: %s)."},
	"gc-warn-held-directory": {
		"中断された実行がまとめて退避したディレクトリ %s (ファイル %s 件) が作業用の名前 %s のままです。次の --force 実行で元に戻します。",
		"a directory an interrupted run held whole: %s (%s files), under the private name %s; the next --force run puts it back."},
	"gc-held-directory-restored": {
		"中断された実行がまとめて退避したディレクトリ %s (ファイル %s 件) を元に戻しました (作業用の名前 %s から)。",
		"put back a directory an interrupted run held whole: %s (%s files), from the private name %s."},
	"gc-held-directory-stays": {
		"中断された実行がまとめて退避したディレクトリ %s (ファイル %s 件) を元に戻せず、作業用の名前 %s のままです (理由はエラーを参照)。",
		"could not put back a directory an interrupted run held whole: %s (%s files) stays under the private name %s (errors say why)."},
	"gc-warn-in-flight": {
		"実行中の --force が作業用の名前で削除中のファイルが %s 件あります (最初: %s)。中断の残りではありません。",
		"files a --force run that is running now holds under a private name while deleting them: %s (first: %s); not leftovers of an interrupted run."},
	"gc-warn-tracked-journal": {
		"%s は git 管理下ですが、river gc はこの名前にジャーナルを置きます。この dry-run は読んでおらず、--force は実行を拒否します (git 管理下のファイルは変更しません)。管理対象から外し (git rm --cached %s)、無視してください (.gitignore に %s を追加)。",
		"%s is tracked in the git index, but river gc keeps its intent journal under that name: this dry-run did not read it, and --force refuses to run (it never changes a tracked file). Untrack it (git rm --cached %s) and ignore it (add %s to .gitignore)."},
	"gc-warn-no-git-index": {
		"%s はバケットで git インデックスがありません。追跡ファイルの保護は適用されません (.gitkeep と .keep は保護します)。",
		"%s is a bucket, which has no git index: tracked-file protection does not apply (.gitkeep and .keep stay protected)."},
	"gc-warn-versioned-bucket": {
		"%s はバージョニングが有効です。削除 %s 件は削除マーカーを残しただけで、容量は非現行バージョンが期限切れになるまで戻りません。",
		"%s keeps versions: the %s deletions left delete markers, and the space returns only when the noncurrent versions expire."},
	"gc-warn-leftover": {
		"中断された以前の実行が作業用の名前で残したファイルが %s 件あります (最初: %s)。次の --force 実行で元の名前に戻します。",
		"files an interrupted run left under a private name: %s (first: %s); the next --force run puts them back."},
	"gc-error-line":         {"river gc: エラー: %s: %s", "river gc: error: %s: %s"},
	"gc-err-not-utf8-dir":   {"ディレクトリ名が UTF-8 ではないため、下位を走査しません", "directory name is not valid UTF-8; not descended"},
	"gc-err-not-utf8-file":  {"ファイル名が UTF-8 ではないため、一覧に含めません", "file name is not valid UTF-8; not listed"},
	"gc-err-op-open-root":   {"ルートディレクトリを開けません: %s", "cannot open root directory: %s"},
	"gc-err-op-open-dir":    {"ディレクトリを開けません: %s", "cannot open directory: %s"},
	"gc-err-op-read-dir":    {"ディレクトリを読めません: %s", "cannot read directory: %s"},
	"gc-err-op-stat":        {"stat できません: %s", "cannot stat: %s"},
	"gc-err-op-read-meta":   {"メタデータを読めません: %s", "cannot read metadata: %s"},
	"gc-err-op-read-store":  {"エントリを判定するファイルを読めません: %s", "cannot read the store: %s"},
	"gc-err-op-rewrite":     {"書き換えませんでした: %s", "not rewritten: %s"},
	"gc-err-not-store":      {"書き手の形式ではありません (Riverbed index は entries 配列を持つ 1 つのオブジェクト)", "not in its writer's form (a Riverbed index is one object with an entries array)"},
	"gc-err-op-judge":       {"判定できません: %s", "cannot judge: %s"},
	"gc-err-op-restore":     {"元の名前に戻せません: %s", "cannot restore: %s"},
	"gc-err-op-lock":        {"ロックを取得できません: %s", "cannot lock: %s"},
	"gc-err-interrupted":    {"実行が中断されました: %s 件の削除は試行していません", "run interrupted: %s deletions not attempted"},
	"gc-err-changed":        {"スキャン後に変更されました: %s", "changed since scan: %s"},
	"gc-err-owner":          {"元の所有者 (uid %s、gid %s) に戻せません", "cannot give it back to its owner (uid %s, gid %s)"},
	"gc-err-copy-size":      {"新しいコピーが %s バイトになり、予定の %s バイトと違います", "the new copy came to %s bytes, not the %s announced"},
	"gc-err-changed-any":    {"スキャン後に変更されました", "changed since scan"},
	"gc-err-not-regular":    {"通常ファイルではありません", "not a regular file"},
	"gc-err-not-dir":        {"ディレクトリではありません", "not a directory"},
	"gc-err-locked":         {"別の river gc --force 実行がロックを保持しています", "another river gc --force run holds the lock"},
	"gc-err-too-large":      {"値が 2^53-1 を超えています", "beyond 2^53-1"},
	"gc-err-other-mount":    {"別のファイルシステム上にあります", "on another file system"},
	"gc-err-unknown-scope":  {"不明なスコープです", "unknown scope"},
	"gc-err-op-delete":      {"削除できません: %s", "cannot delete: %s"},
	"gc-err-held":           {"%s のため削除せず、元の名前が使われているため %s として残しました (%s)", "%s; not deleted, and kept as %s because its name was taken (%s)"},
	"gc-err-held-other":     {"%s のため削除せず、元の名前に戻せなかったため %s として残しました (%s)", "%s; not deleted, and kept as %s because putting it back failed (%s)"},
	"gc-err-held-dir":       {"ファイルを削除する間 %s として置いたディレクトリを元の名前に戻せませんでした。削除されなかったものはそこにあります (%s)", "the directory was held as %s while its files were deleted and could not be put back; what was not deleted is there (%s)"},
	"gc-err-private-exists": {"作業用の名前 (.river-gc-deleting.*) が既に使われています", "the private name (.river-gc-deleting.*) is already in use"},
	"gc-err-name-taken":     {"元の名前が別のファイルに使われています", "the original name is taken by another file"},
	"gc-err-bad-path":       {"正規のパスではありません", "not a canonical path"},
	"gc-note-missing":       {"存在しません。%s には走査対象がありません", "does not exist; nothing to scan in %s"},
	"gc-note-not-dir":       {"%s でありディレクトリではありません。辿らず、%s は走査しません", "is %s, not a directory; not followed, nothing scanned in %s"},
	"gc-note-special":       {"%s のため辿らず、一覧に含めません", "%s; not followed, not listed"},
	"gc-note-nested-repo":   {"独自の .git を持つ別のリポジトリのため、中に入りません", "another repository (it holds its own .git); not entered"},
	"gc-note-other-mount":   {"別のファイルシステム上のため下位を走査しません", "on another file system; not descended"},
	"gc-note-changed":       {"走査中に変更されました (現在 %s)。下位を走査しません", "changed during scan (now %s); not descended"},
	"gc-note-metadata":      {"メタデータを使いません (%s)。mtime を使います", "metadata not used (%s); mtime used"},
	"gc-explain-file": {
		"%s: スコープ %s、%s、タイムスタンプ %s (%s)、経過 %s 日",
		"%s: scope %s, %s, timestamp %s (%s), age in days %s"},
	"gc-explain-nofile": {"%s:", "%s:"},
	"gc-verdict-remove-age": {
		"→ 削除: age (経過 %s、保持期間 %s 日より古い)", "→ remove: age (%s old, older than the %s-day retention)"},
	"gc-verdict-remove-count": {
		"→ 削除: count (新しい順で %s 番目 > 上限 %s 件)", "→ remove: count (rank %s, newest first, beyond the %s kept)"},
	"gc-verdict-remove-size": {
		"→ 削除: size (累計 %s > 上限 %s MiB)", "→ remove: size (cumulative %s > max %s MiB)"},
	"gc-verdict-keep": {
		"→ 保持: すべての上限内 (保持期間 %s 日、最大 %s 件、最大 %s MiB)", "→ keep: within every limit (age limit %s d, at most %s entries, at most %s MiB)"},
	"gc-verdict-guarded": {"→ 保持: 正本 (またはその参照先) のため削除しません", "→ keep: a single source (or its target); never deleted"},
	"gc-verdict-live":    {"→ 保持: 生きているエントリ (または保持されるエントリが参照している)", "→ keep: a live entry (or one a kept entry refers to); never removed"},
	"gc-verdict-newest-two": {"→ 保持: 台帳の最後の 2 行のひとつ (River Review の compare-eval-ledger が比較する)。削除しません",
		"→ keep: one of the ledger's last two lines (River Review's compare-eval-ledger compares them); never removed"},
	"gc-verdict-unreadable-line": {"→ 保持: 「timestamp」を持つ JSON オブジェクトとして読めない行。削除しません",
		"→ keep: a line that does not read as a JSON object with a timestamp; never removed"},
	"gc-verdict-excluded":     {"→ 保持: --exclude に一致", "→ keep: matched --exclude"},
	"gc-verdict-tracked":      {"→ 保持: git 管理下 (または .gitkeep/.keep)", "→ keep: tracked in git (or .gitkeep/.keep)"},
	"gc-verdict-unjudgeable":  {"→ 保持: エンジンが判定できない名前", "→ keep: a name the engine cannot judge"},
	"gc-verdict-future":       {"→ 保持: タイムスタンプが未来 (--now より後)", "→ keep: timestamp in the future (after --now)"},
	"gc-verdict-nested-repo":  {"→ 保持: 独自の .git を持つ別のリポジトリの中", "→ keep: inside another repository (a directory holding its own .git); never entered"},
	"gc-verdict-unusable":     {"→ 保持: タイムスタンプが 1970 年以前で使えません", "→ keep: timestamp at or before 1970 (unusable)"},
	"gc-verdict-not-in-scope": {"→ 選択されたスコープのいずれにも含まれません", "→ not in any selected scope"},
	"gc-verdict-not-found":    {"→ 通常ファイルが見つかりません", "→ not found (no regular file at this path)"},
	"gc-verdict-entry-scope-off": {"→ スコープ %[1]s のエントリ名です。このスコープは選択されていません (--scope %[1]s を付けてください)",
		"→ an entry name of scope %[1]s, which is not selected (add --scope %[1]s)"},
	"gc-verdict-no-entry": {"→ スコープ %s のストアにこの名前のエントリはありません (id の / や空白などは %%XX でエスケープされます)",
		"→ no entry of that name in scope %s's store (ids are named with /, spaces and the like escaped as %%XX)"},
	"gc-verdict-error": {"→ エラー: %s", "→ error: %s"},
}
