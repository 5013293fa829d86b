package render

// recordMessages are the words of river gc's record when a run ends
// badly (SPEC B4): the intent journal, killed runs, a cut summary. They
// join messages when the catalog is built.
var recordMessages = map[string][2]string{ // key → {ja, en}
	"gc-interrupted": {
		"記録を残さずに終了した river gc --force 実行があります (journal %s)。その実行が削除したファイル %s 件:",
		"a river gc --force run ended without leaving a record (journal %s); the files it deleted, %s:"},
	"gc-interrupted-finished": {
		"削除を終えたものの記録を確認できなかった river gc --force 実行があります (journal %s)。その実行が削除したファイル %s 件:",
		"a river gc --force run finished deleting but its record was not confirmed (journal %s); the files it deleted, %s:"},
	"gc-interrupted-rewritten": {
		"記録を残さずに終了した river gc --force 実行 (journal %s) が書き換えたファイル %s 件:",
		"the files a river gc --force run that left no record (journal %s) rewrote, %s:"},
	"gc-err-op-journal": {"intent journal を使えません: %s", "cannot use the intent journal: %s"},
	"gc-err-not-journaled": {
		"%s。これ以上削除しません: %s 件の削除は試行していません",
		"%s; nothing more deleted: %s deletions not attempted"},
	"gc-err-journal-corrupt": {
		"journal の形式ではありません。そのまま残します (確認して削除してください)。読めない journal がある間は削除しません",
		"not in the journal's format; left as it is (inspect it, then remove it); nothing is deleted while it cannot be read"},
	"gc-err-linked": {"他のハードリンクがあります", "has other hard links"},
	"gc-md-cut": {
		"要約が GitHub の上限に近づいたため、ここで打ち切りました (省略 %s 件)。完全な一覧は --json の結果にあります。",
		"the summary was cut here to stay below GitHub's step-summary limit (%s entries left out); the full list is in the --json result."},
	"gc-md-details": {"%s 件を表示", "show %s"},
}
