package main

// helpEnglish and helpJapanese are the help texts of the flags,
// arguments and commands (the tags name them as ${h_…}), given to kong
// in the language of the run (SPEC B7); the man page and the completions
// use English.
var helpEnglish = map[string]string{
	"h_completion":   "Print a shell completion script: bash, zsh or fish.",
	"h_eval":         "Run the evaluation harness over fixture cases (--json: a machine-readable report).",
	"h_eval_dir":     "Directory of fixture cases (default: ./fixtures, relative to the working directory).",
	"h_eval_run":     "Only run cases whose name matches REGEX.",
	"h_eval_update":  "Rewrite expectation files from the current output (refused for cases failing determinism or invariant checks).",
	"h_format":       "Output form: text (review lines, the default), review (lines River Review's engine keeps), json (one object per document), findings (River Review output.schema.json, one per line) or artifact (River Review Review Artifact, one per line).",
	"h_help":         "Show help for plangate-gc or one of its commands.",
	"h_help_command": "The command to explain.",
	"h_input":        "Read the documents from FILE instead of stdin.",
	"h_json":         "Same as --format json.",
	"h_judge":        "Judge the JSON documents on stdin (the default command).",
	"h_lang":         "Language of the review lines and messages (ja, en).",
	"h_merge":        "With --format findings or artifact: write exactly one document for all input documents (the file River Review's readers take).",
	"h_schema":       "Print a JSON Schema: input (default), result (--json output) or gc-result (river-gc --json output).",
	"h_schema_name":  "Which schema: input, result or gc-result.",
	"h_shell":        "The shell: bash, zsh or fish.",
	"h_version":      "Print the version and exit.",
}

var helpJapanese = map[string]string{
	"h_completion":   "シェルの補完スクリプトを表示します: bash、zsh または fish。",
	"h_eval":         "フィクスチャのケースで評価ハーネスを実行します (--json で機械可読の報告)。",
	"h_eval_dir":     "フィクスチャのケースのディレクトリ (既定: 現在のディレクトリからの ./fixtures)。",
	"h_eval_run":     "名前が REGEX に一致するケースだけを実行します。",
	"h_eval_update":  "期待値ファイルを現在の出力で書き換えます (決定性または不変条件の検査に失敗したケースは拒否します)。",
	"h_format":       "出力の形式: text (レビュー行、既定)、review (River Review のエンジンが残す行)、json (文書ごとに 1 つのオブジェクト)、findings (River Review の output.schema.json、1 行に 1 つ)、artifact (River Review の Review Artifact、1 行に 1 つ)。",
	"h_help":         "plangate-gc またはそのコマンドのヘルプを表示します。",
	"h_help_command": "説明するコマンド。",
	"h_input":        "文書を標準入力ではなく FILE から読みます。",
	"h_json":         "--format json と同じです。",
	"h_judge":        "標準入力の JSON 文書を判定します (既定のコマンド)。",
	"h_lang":         "レビュー行とメッセージの言語 (ja、en)。ロケールにかかわらず既定は ja です。",
	"h_merge":        "--format findings または artifact で、すべての入力文書をちょうど 1 つの文書にまとめて書きます (River Review の読み手が受け取るファイル)。",
	"h_schema":       "JSON Schema を表示します: input (既定)、result (--json の出力)、gc-result (river-gc --json の出力)。",
	"h_schema_name":  "どのスキーマか: input、result または gc-result。",
	"h_shell":        "シェル: bash、zsh または fish。",
	"h_version":      "バージョンを表示して終了します。",
}

const descriptionJapanese = `River Review の GC インベントリを決定的に KEEP/REMOVE 判定します。

コマンドなしでは判定します: 1 つ以上の JSON 文書 ({"inventory", "retention", "now", ...}) を読み、文書ごとに日本語の <file>:<line>: <message> レビュー行を書きます。--format json|findings|artifact では 1 行に 1 つの JSON オブジェクトを書きます。ゲートを通らない文書は NO_REVIEW の行を書き、理由は標準エラー出力に出ます。

例:
` + examples + `
終了コード: どの判定 (ok、no_review、handoff) も 0、入出力の失敗か評価の失敗は 1、使い方の誤りは 2。`
