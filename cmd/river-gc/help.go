//go:build linux

package main

// scopesURL is the page that lists what each scope covers, by its URL:
// --help is read where no clone is (SPEC B9).
const scopesURL = "https://github.com/plangate-gc/plangate-gc/blob/main/docs/scopes.md"

// helpEnglish and helpJapanese are the help texts of the flags,
// arguments and commands (the tags name them as ${h_…}), given to kong
// in the language of the run (SPEC B7); the man page and the completions
// use English.
var helpEnglish = map[string]string{
	"h_debug":          "Verbose stderr logging.",
	"h_dry_run":        "List candidates only (the default without --force; wins over --force).",
	"h_emit_inventory": "Write one plangate-gc input document per non-empty scope and exit.",
	"h_exclude":        "Protect paths matching this .gitignore-syntax glob, relative to the root (./x and absolute paths inside the root are normalized; repeatable).",
	"h_explain":        "Explain the verdict for PATH (relative to the current directory) and the paths after it (or repeat the flag); deletes nothing.",
	"h_force":          "Actually delete.",
	"h_j_s_o_n":        "Write the machine-readable result on stdout; the summary goes to stderr.",
	"h_j_s_o_n_format": "What --json writes: gc (river gc's result), findings (one River Review output.schema.json document for the run) or artifact (one Review Artifact).",
	"h_lang":           "Language of the summary and messages (en, ja; default: ja when LC_ALL, LC_MESSAGES or LANG, the first one set, starts with ja, else en).",
	"h_max_entries":    "Keep at most N entries per scope, dropping the oldest (default 1000); SCOPE=N for one scope (repeatable).",
	"h_keep_within":    "Keep every file and entry younger than DURATION (24h, 36h, 7d, 1d12h) whatever the limits say; they do not count toward --max-entries or --max-size-mb (default: off).",
	"h_max_size_mb":    "Keep at most N MB per scope, dropping the oldest (default 500; 1 MB = 1 MiB = 1048576 bytes); SCOPE=N for one scope (repeatable).",
	"h_now":            "Pin the reference time (default: the system clock, which breaks determinism).",
	"h_output_file":    "Write the --json result to PATH atomically instead of stdout.",
	"h_plan_out":       "Dry-run that also writes the plan to FILE: what it would remove, each item with its identity (review it, then apply it with --force --apply FILE).",
	"h_apply":          "Delete at most the items of the plan FILE (written by --plan-out), each only while it is still what was planned; scopes, policy and --now come from the plan.",
	"h_quiet":          "Suppress the human-readable summary (errors still go to stderr).",
	"h_retention_days": "Remove entries older than N days (default 90; by artifact metadata timestamp, mtime fallback); SCOPE=N for one scope (repeatable).",
	"h_root":           "Repository root that all scopes are relative to: a directory, or s3://BUCKET/PREFIX for a prefix of an S3-compatible bucket (default: the nearest directory upward holding .river/ or artifacts/).",
	"h_scope":          "memory, evals, review-artifacts, tmp, all (those four; the default), or the opt-in runs, memory-entries, eval-ledger (repeatable).",
	"h_summary_file":   "Append the Markdown summary to PATH (e.g. $GITHUB_STEP_SUMMARY).",
	"h_timestamp":      "Judge files by artifact metadata timestamps (with mtime fallback) or by mtime only.",
	"h_verbose":        "List every removal in the summary (a terminal otherwise gets the first ones and a count), and the protected files with the rule that keeps each.",
	"h_version":        "Print the version and exit.",
}

var helpJapanese = map[string]string{
	"h_debug":          "標準エラー出力に詳しいログを出します。",
	"h_dry_run":        "候補を一覧にするだけです (--force がなければ既定。--force より優先)。",
	"h_emit_inventory": "空でないスコープごとに plangate-gc の入力文書を 1 つ書いて終了します。",
	"h_exclude":        "この .gitignore 形式のグロブに一致するパスを保護します。ルートからの相対パスです (./x とルート内の絶対パスは正規化します。繰り返し可)。",
	"h_explain":        "PATH (現在のディレクトリからの相対パス) とそれに続くパスの判定を説明します (フラグの繰り返しも可)。何も削除しません。",
	"h_force":          "実際に削除します。",
	"h_j_s_o_n":        "機械可読の結果を標準出力に書きます。要約は標準エラー出力に出ます。",
	"h_j_s_o_n_format": "--json が書くもの: gc (river gc の結果)、findings (実行全体で River Review の output.schema.json 文書 1 つ)、artifact (Review Artifact 1 つ)。",
	"h_lang":           "要約とメッセージの言語 (en、ja。既定: LC_ALL、LC_MESSAGES、LANG のうち最初に設定されたものが ja で始まれば ja、それ以外は en)。",
	"h_max_entries":    "スコープごとに最大 N 件を残し、古いものから削除します (既定 1000)。SCOPE=N で 1 つのスコープだけ (繰り返し可)。",
	"h_keep_within":    "DURATION (24h、36h、7d、1d12h) より新しいファイルとエントリは上限にかかわらずすべて残します。--max-entries と --max-size-mb の件数やサイズには数えません (既定: なし)。",
	"h_max_size_mb":    "スコープごとに最大 N MB を残し、古いものから削除します (既定 500。1 MB = 1 MiB = 1048576 バイト)。SCOPE=N で 1 つのスコープだけ (繰り返し可)。",
	"h_now":            "基準時刻を固定します (既定: システムの時計。決定性が失われます)。",
	"h_output_file":    "--json の結果を標準出力ではなく PATH に不可分に書きます。",
	"h_plan_out":       "計画を FILE にも書く dry-run です: 削除するものを各項目の同一性とともに書きます (レビューしてから --force --apply FILE で適用します)。",
	"h_apply":          "計画 FILE (--plan-out が書いたもの) の項目だけを、計画したときのままである場合に限って削除します。スコープ、ポリシー、--now は計画のものを使います。",
	"h_quiet":          "人が読む要約を出しません (エラーは標準エラー出力に出ます)。",
	"h_retention_days": "N 日より古いエントリを削除します (既定 90。成果物のメタデータのタイムスタンプ、なければ mtime)。SCOPE=N で 1 つのスコープだけ (繰り返し可)。",
	"h_root":           "すべてのスコープの基準となるリポジトリのルート。ディレクトリ、または S3 互換バケットのプレフィックス s3://BUCKET/PREFIX (既定: 上位で最も近い .river/ か artifacts/ を持つディレクトリ)。",
	"h_scope":          "memory、evals、review-artifacts、tmp、all (この 4 つ。既定)、または選んで使う runs、memory-entries、eval-ledger (繰り返し可)。",
	"h_summary_file":   "Markdown の要約を PATH に追記します (例: $GITHUB_STEP_SUMMARY)。",
	"h_timestamp":      "ファイルを成果物のメタデータのタイムスタンプ (なければ mtime) で判定するか、mtime だけで判定するか。",
	"h_verbose":        "要約に削除をすべて載せます (ほかは端末なら最初の数件と件数)。保護されたファイルとそれを残す規則も載せます。",
	"h_version":        "バージョンを表示して終了します。",
}

const descriptionJapanese = `River Review の成果物を決定的にガベージコレクションします。

.river/memory/、artifacts/evals/、artifacts/review-artifact*.json、artifacts/review-*.md と一時ディレクトリを走査し、plangate-gc のエンジンで保持ポリシー (経過日数、件数、サイズ。和集合で、ファイルごとに理由は 1 つ) を適用し、--force のときだけ削除します。正本は削除しません。シンボリックリンクは辿りません。削除するディレクトリは、実行で空になった評価実行のフォルダーだけです。River Review のストアは選んで使います: --scope runs、memory-entries、eval-ledger (実行のたびに削除できる量を示します)。スコープごとの対象: ` + scopesURL + `

ルートは --root、なければ上位で最も近い .river/ か artifacts/ を持つディレクトリ (git 作業ツリーの最上位が持つならそこ) で、要約に示します。コマンドラインのパスは現在のディレクトリからの相対パスです。--exclude のグロブはルートからの相対パスです。

例:
` + examplesJapanese + `
終了コード: 成功 (errors[] が空) は 0、実行時のエラー (errors[] が空でないか、別の --force 実行がロックを保持) は 1、設定エラーは 2。`

// examplesJapanese are the examples of --help in Japanese: the same
// commands as examples, with the comments in Japanese.
const examplesJapanese = `  river-gc                                        # dry-run: 削除されるものを一覧します
  river-gc --force                                # 削除します
  river-gc --force --json --output-file ./artifacts/gc-result.json
  river-gc --plan-out plan.json                   # plan.json をレビューしてから
  river-gc --force --apply plan.json              # そこにあるものだけを削除します
  river-gc --scope memory --scope evals --retention-days 30
  river-gc --scope all --scope runs --scope memory-entries --scope eval-ledger
  river-gc --force --retention-days 90 --retention-days tmp=7
  river-gc --force --exclude 'artifacts/keep/**'
  river-gc --root s3://artifacts/acme/web         # S3 互換バケットのプレフィックス
  source <(river-gc completion bash)              # zsh、fish も同様
  river-gc --emit-inventory | plangate-gc --json  # 判定を再現します

`
