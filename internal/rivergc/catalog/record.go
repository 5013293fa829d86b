package catalog

// recordMessages are the words of river gc's record when a run ends
// badly (SPEC B4): the intent journal, killed runs, a cut summary. Register
// adds them to the catalog.
var recordMessages = map[string][2]string{ // key → {ja, en}
	"gc-interrupted": {
		"記録を残さずに終了した river gc --force 実行があります (ジャーナル %s)。その実行が削除したファイル %s 件:",
		"a river gc --force run ended without leaving a record (journal %s); the files it deleted, %s:"},
	"gc-interrupted-finished": {
		"削除を終えたものの記録を確認できなかった river gc --force 実行があります (ジャーナル %s)。その実行が削除したファイル %s 件:",
		"a river gc --force run finished deleting but its record was not confirmed (journal %s); the files it deleted, %s:"},
	"gc-interrupted-rewritten": {
		"記録を残さずに終了した river gc --force 実行 (ジャーナル %s) が書き換えたファイル %s 件:",
		"the files a river gc --force run that left no record (journal %s) rewrote, %s:"},
	"gc-interrupted-temps": {
		"書き換え中に強制終了された river gc --force 実行 (ジャーナル %s) が一時的な名前で残した複製 %s 件 (次の --force 実行が削除します):",
		"copies of a store that a river gc --force run killed while rewriting it (journal %s) left under a temporary name, %s (the next --force run removes them):"},
	"gc-interrupted-temps-removed": {
		"書き換え中に強制終了された river gc --force 実行 (ジャーナル %s) が一時的な名前で残した複製 %s 件を削除しました:",
		"removed the copies of a store that a river gc --force run killed while rewriting it (journal %s) left under a temporary name, %s:"},
	"gc-err-op-journal": {"ジャーナルを使えません: %s", "cannot use the intent journal: %s"},
	"gc-err-not-journaled": {
		"%s。これ以上削除しません: %s 件の削除は試行していません",
		"%s; nothing more deleted: %s deletions not attempted"},
	"gc-err-journal-corrupt": {"ジャーナルの形式ではありません", "not in the journal's format"},
	"gc-err-journal-unreadable": {
		"ジャーナルの形式でない行が %s 行あります。読めた分は中断された実行の一覧にあります。記録を書いた --force 実行がジャーナルを %s に移して残します (以後の実行は読みません。確認して削除してください)",
		"lines not in the journal's format: %s; what could be read is listed as the interrupted run's; the --force run that writes its record moves the journal to %s and keeps it there (no later run reads it; inspect it, then remove it)"},
	"gc-err-journal-unreadable-kept": {
		"ジャーナルの形式でない行が %s 行あります。読めた分は中断された実行の一覧にあります。移す先の名前が空いていないため、そのまま残します (確認して削除してください)",
		"lines not in the journal's format: %s; what could be read is listed as the interrupted run's; no name is free to move it to, so it stays where it is (inspect it, then remove it)"},
	"gc-err-not-journalable": {"ジャーナルに書けない項目です (この一括分は削除しません)", "cannot be written to the journal (nothing of its batch is deleted)"},
	"gc-err-linked":          {"他のハードリンクがあります", "has other hard links"},
	"gc-md-cut": {
		"要約が GitHub の上限に近づいたため、ここで打ち切りました (省略 %s 件)。完全な一覧は --json の結果にあります。",
		"the summary was cut here to stay below GitHub's step-summary limit (%s entries left out); the full list is in the --json result."},
	"gc-md-details": {"%s 件を表示", "show %s"},
}
