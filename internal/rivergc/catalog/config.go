package catalog

// configMessages are the words of river gc's config errors and of the
// failures its edge words (SPEC B5: --lang ja never falls back to
// English). Register adds them to the catalog.
var configMessages = map[string][2]string{ // key → {ja, en}
	"gc-cfg-error":        {"設定エラー: %s", "config error: %s"},
	"gc-cfg-did-you-mean": {" (もしかして %s?)", "; did you mean %s?"},
	"gc-cfg-completion-one": {"completion: シェルを 1 つ指定してください: bash、zsh または fish",
		"completion: want one shell: bash, zsh or fish"},
	"gc-cfg-completion-shell": {"completion: 未知のシェル %s です: bash、zsh または fish を指定してください",
		"completion: unknown shell %s: want bash, zsh or fish"},
	"gc-cfg-empty": {"%s: 値が空です。値を指定するかフラグを省いてください", "%s: empty value; give one or leave the flag out"},
	"gc-cfg-explain-with": {
		"--explain は質問に答えるだけで何も変更しません。%s とは併用できません",
		"--explain answers questions and changes nothing; it does not combine with %s"},
	"gc-cfg-emit-with": {
		"--emit-inventory はエンジンの入力を書くだけです。--force、--json、--summary-file とは併用できません",
		"--emit-inventory only writes the engine's input; it does not combine with --force, --json or --summary-file"},
	"gc-cfg-quiet-debug": {"--quiet と --debug は同時に指定できません", "--quiet and --debug are mutually exclusive"},
	"gc-cfg-needs-json":  {"%s には --json が必要です", "%s needs --json"},
	"gc-cfg-keep-within": {
		"--keep-within %s: 24h、36h、7d、1d12h のような期間を指定してください (単位は h、m、s と日数の d)",
		"--keep-within %s: want a span such as 24h, 36h, 7d or 1d12h (units h, m, s, and d for days)"},
	"gc-cfg-now": {
		"--now %s: 1970 年以降の RFC 3339 タイムスタンプを指定してください (例: 2025-11-29T00:00:00Z)",
		"--now %s: want an RFC 3339 timestamp from 1970 on, such as 2025-11-29T00:00:00Z"},
	"gc-cfg-bucket-root": {
		"--root %s: s3://BUCKET/PREFIX の形で指定してください",
		"--root %s: want s3://BUCKET/PREFIX"},
	"gc-cfg-bucket": {
		"--root %s: バケットを使えません: %s",
		"--root %s: cannot use the bucket: %s"},
	"gc-cfg-bucket-credentials": {
		"--root %s: サーバーが資格情報を拒否しました (%s)。AWS_ACCESS_KEY_ID、AWS_SECRET_ACCESS_KEY (または AWS_PROFILE) とバケットの権限を確認してください",
		"--root %s: the server refused the credentials (%s); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) and the bucket's permissions"},
	"gc-cfg-bucket-nocredentials": {
		"--root %s: AWS の設定から資格情報を得られません。AWS_ACCESS_KEY_ID と AWS_SECRET_ACCESS_KEY、または AWS_PROFILE (credential_process、SSO、ロール) を確認してください",
		"--root %s: cannot get credentials from the AWS configuration; check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE (its credential_process, SSO or role)"},
	"gc-cfg-bucket-timeout": {
		"%s=%s: 正の時間 (例: 90s、10m) を指定してください",
		"%s=%s: want a positive duration, such as 90s or 10m"},
	"gc-cfg-bucket-silent": {
		"--root %s: サーバーが %s 以内に応答しません (%s)。AWS_ENDPOINT_URL_S3 とネットワークを確認してください",
		"--root %s: the server did not answer within %s (%s); check AWS_ENDPOINT_URL_S3 and the network"},
	"gc-cfg-bucket-region": {
		"--root %s: リージョンが設定されていません。AWS_REGION (またはプロファイルの region) を設定してください",
		"--root %s: no region is set; set AWS_REGION (or the profile's region)"},
	"gc-cfg-bucket-unreachable": {
		"--root %s: サーバー %s に接続できません。AWS_ENDPOINT_URL_S3 (未設定なら AWS 自体) とネットワークを確認してください",
		"--root %s: cannot reach the server %s; check AWS_ENDPOINT_URL_S3 (unset means AWS itself) and the network"},
	"gc-cfg-bucket-redirect": {
		"--root %s: サーバーが別の場所 %s へリダイレクトしました (HTTP %s)。river gc はリダイレクトに従いません。AWS_ENDPOINT_URL_S3 (と AWS_REGION) にバケットの実際のエンドポイントを設定してください",
		"--root %s: the server redirects to %s (HTTP %s); river gc follows no redirect, so set AWS_ENDPOINT_URL_S3 (and AWS_REGION) to the bucket's own endpoint"},
	"gc-cfg-bucket-missing": {
		"--root %s: バケット %s は存在しません (NoSuchBucket)。バケット名 (小文字) とエンドポイントを確認してください",
		"--root %s: the bucket %s does not exist (NoSuchBucket); check the bucket's name (lower case) and the endpoint"},
	"gc-cfg-bucket-condition": {
		"--root %s: サーバーが条件付きリクエストを守りません (%s)。スキャン後に変わったオブジェクトを削除しうるため --force は使えません",
		"--root %s: the server does not honour a conditional request (%s); --force could delete objects changed since the scan, so it is refused"},
	"gc-cfg-git-env": {
		"%s が設定されています: river gc はルートより上の .git からのみ git のインデックスを見つけるため、%s が管理対象にするファイルを判別できません。解除してください",
		"%s is set: river gc finds the git index only through a .git entry above the root, on the root's file system, so it cannot tell which files %s makes tracked; unset it"},
	"gc-cfg-scope": {
		"--scope %s: memory、evals、review-artifacts、tmp、runs、memory-entries、eval-ledger、all のいずれかを指定してください",
		"--scope %s: want memory, evals, review-artifacts, tmp, runs, memory-entries, eval-ledger or all"},
	"gc-cfg-policy-scope": {
		"%s %s: 不明なスコープ %s です。memory、evals、review-artifacts、tmp、runs、memory-entries、eval-ledger のいずれかを指定してください",
		"%s %s: unknown scope %s; want memory, evals, review-artifacts, tmp, runs, memory-entries or eval-ledger"},
	"gc-cfg-policy-days":    {"%s %s: 0 以上の数を指定してください", "%s %s: want a number ≥ 0"},
	"gc-cfg-policy-entries": {"%s %s: 1 以上の整数を指定してください", "%s %s: want an integer ≥ 1"},
	"gc-cfg-policy-size":    {"%s %s: 0 より大きい数を指定してください", "%s %s: want a number > 0"},
	"gc-cfg-list": {
		"%s %s にカンマがあります。値ごとにフラグを繰り返してください: %s",
		"%s: %s holds a comma; repeat the flag for each value: %s"},
	"gc-cfg-root-missing": {"--root %s: 存在するディレクトリではありません", "--root %s: not an existing directory"},
	"gc-cfg-root-not-river": {
		"--root %s には .river/ も artifacts/ もありません: River Review リポジトリのルートではありません",
		"--root %s holds neither .river/ nor artifacts/: not a River Review repository root"},
	"gc-cfg-no-root": {
		"%s とその上位に River Review リポジトリのルート (.river/ か artifacts/ を持つディレクトリ) がありません。リポジトリ内で実行するか --root を指定してください",
		"no River Review repository root (a directory holding .river/ or artifacts/) in %s or above it; run from the repository or pass --root"},
	"gc-cfg-exclude-backslash": {
		"--exclude %s: バックスラッシュ区切りの Windows パスはルートからの相対パスに一致しません。/ で区切ってください: %s",
		"--exclude %s: a Windows path with backslashes never matches a root-relative path; separate with /: %s"},
	"gc-cfg-exclude-outside": {
		"--exclude %s: ルートの外の絶対パスです。ルート内のファイルには一致しません",
		"--exclude %s: an absolute path outside the root; it can never match a file in the root"},
	"gc-cfg-exclude-dotdot": {
		"--exclude %s: .. を含むパターンはルートからの相対パスに一致しません",
		"--exclude %s: a pattern with a .. component can never match a root-relative path"},
	"gc-cfg-exclude-root": {
		"--exclude %s: ルート自体を指しています。保護したいパスをルートからの相対パスで指定してください",
		"--exclude %s: names the root itself; give the paths to protect, relative to the root"},
	"gc-cfg-pattern-empty":              {"gitignore パターン %s が空か空白のみです", "gitignore pattern %s is empty or only spaces"},
	"gc-cfg-pattern-comment":            {"gitignore パターン %s はエスケープされていない '#' で始まります (コメント)。'#' そのものは \\# と書いてください", "gitignore pattern %s starts with an unescaped '#' (a comment); write \\# for a literal '#'"},
	"gc-cfg-pattern-nul":                {"gitignore パターン %s のオフセット %s に NUL バイトがあります", "gitignore pattern %s contains a NUL byte at offset %s"},
	"gc-cfg-pattern-trailing-backslash": {"gitignore パターン %s はオフセット %s の単独のバックスラッシュで終わっています", "gitignore pattern %s ends with a lone backslash at offset %s"},
	"gc-cfg-pattern-unterminated-class": {"gitignore パターン %s のオフセット %s の '[' が閉じていません", "gitignore pattern %s has an unterminated '[' at offset %s"},
	"gc-cfg-same-file":                  {"--%s と --%s が同じファイル %s を指しています", "--%s and --%s name the same file %s"},
	"gc-cfg-out-not-regular":            {"存在し、通常ファイルではありません。river gc は置き換えません", "exists and is not a regular file; river gc never replaces it"},
	"gc-cfg-out-linked":                 {"他のハードリンクがあります。river gc は名前が 1 つのファイルにのみ追記します", "has other hard links; river gc appends only to a file with one name"},
	"gc-cfg-out-protected":              {"%sです。river gc はそこに書きません", "is %s; river gc never writes there"},
	"gc-cfg-what-journal":               {"river gc のジャーナル", "river gc's intent journal"},
	"gc-cfg-what-scope-dir":             {"スコープのディレクトリが置かれる場所", "where a scope directory belongs"},
	"gc-cfg-what-source":                {"正本 %s ", "the single source %s"},
	"gc-cfg-what-source-target":         {"正本 %s (またはそのリンク先) ", "the single source %s (or what it points to)"},
	"gc-cfg-what-entry":                 {"スコープ %s のエントリ", "an entry of scope %s"},
	"gc-cfg-index": {
		"git のインデックスを読めません (%s)。管理対象のファイルを判別できないため、何も判定・削除していません",
		"cannot read the git index (%s); nothing judged or deleted, since tracked files could not be told apart"},
	"gc-cfg-journal-tracked": {
		"%s は git 管理下ですが、river gc はこの名前にジャーナルを置きます。git 管理下のファイルは書き換えも移動も削除もしないため、何も変更していません。管理対象から外し (git rm --cached %s)、無視してから (.gitignore に %s を追加) もう一度実行してください",
		"%s is tracked in the git index, but river gc keeps its intent journal under that name and never writes, moves or removes a tracked file; nothing was changed. Untrack it (git rm --cached %s) and ignore it (add %s to .gitignore), then run again"},
	"gc-cfg-no-record": {
		"この実行の記録を書けませんでした。ジャーナルを残すため、次の実行が削除内容を報告します",
		"the record of this run was not written; the intent journal is kept, so the next run reports what was deleted"},
	"gc-cfg-unknown-flag":      {"不明なフラグ %s", "unknown flag %s"},
	"gc-cfg-hint-sep":          {"。", "; "},
	"gc-cfg-hint-did-you-mean": {"もしかして %s?", "did you mean %s?"},
	"gc-cfg-hint-attach":       {"'-' で始まる値はフラグにつなげて書いてください: %s", "a value starting with '-' must be attached: %s"},
	"gc-cfg-hint-write":        {"%s と書いてください", "write %s"},
	"gc-cfg-hint-not-whole":    {"%s は整数ではありません", "%s is not a whole number"},
	"gc-cfg-hint-not-one-of":   {"%s は %s のいずれでもありません", "%s is not one of %s"},
	"gc-cfg-missing-value":     {"%s には値が必要です", "%s needs a value"},
	"gc-cfg-locked": {
		"別の river gc --force 実行がこのルートのロックを保持しています。何も変更していません",
		"another river gc --force run holds the lock on this root; nothing was changed"},
	"gc-warn-root-fixture-passed": {
		"%s にも .river/ か artifacts/ がありますが、git 作業ツリーの最上位である %s をルートにしました (下の方はフィクスチャかコピーとみなします)。別のルートなら --root を指定してください。",
		"%s also holds .river/ or artifacts/, but the top of its git work tree, %s, was taken as the root (the nearer one is taken for a fixture or a copy); pass --root to choose."},
	"gc-warn-root-inside-work-tree": {
		"ルート %s は git 作業ツリー %s の内側にあり、最上位には .river/ も artifacts/ もありません。フィクスチャかもしれません。--root で確認してください。",
		"the root %s lies inside the git work tree %s, whose top holds neither .river/ nor artifacts/: it may be a fixture; pass --root to be sure."},
	"gc-verdict-keep-exact": {
		"→ 保持: 経過がちょうど %sで、保持期間 %s 日より古くはありません (削除は保持期間より古いものだけ)",
		"→ keep: exactly %s old, not older than the %s-day retention (only older files go)"},
	"gc-verdict-directory": {
		"→ ディレクトリです。river gc は配下のファイルを判定します (判定したファイル %s 件、うち削除 %s 件)。削除するディレクトリは、実行で空になった評価実行のフォルダーだけです",
		"→ a directory: river gc judges the files below it (judged: %s, of which removed: %s); the only directories it removes are an eval run's folders that the run empties"},
	"gc-verdict-run-dir-goes": {
		"→ 評価実行のディレクトリです。配下で判定したファイル %s 件はすべて削除され、空になるフォルダー %s 個 (このディレクトリを含む) も --force で一緒に削除します (空のディレクトリだけ)",
		"→ an eval run's directory: all %s files judged below it go, and the %s folders they empty, this one included, go with them on --force (empty directories only)"},
	"gc-verdict-run-dirs-below": {
		"→ ディレクトリです。river gc は配下のファイルを判定します (判定したファイル %s 件、うち削除 %s 件)。配下で空になる評価実行のフォルダー %s 個は --force で一緒に削除します (空のディレクトリだけ)。このディレクトリは残ります",
		"→ a directory: river gc judges the files below it (judged: %s, of which removed: %s); the %s eval-run folders below it that the removals empty go with them on --force (empty directories only); this one stays"},
	"gc-verdict-in-source": {
		"→ 保持: 正本 %s (またはその下) のため削除しません",
		"→ keep: at or below the single source %s; never deleted"},
	"gc-verdict-outside":     {"→ 存在しますが、選択されたどのスコープにも含まれません", "→ exists, outside every selected scope"},
	"gc-verdict-symlink":     {"→ シンボリックリンクです。辿らず、削除しません", "→ a symbolic link: never followed, never removed"},
	"gc-verdict-not-regular": {"→ 通常ファイルではありません (FIFO、ソケット、デバイス)。開かず、削除しません", "→ not a regular file (a FIFO, socket or device): never opened, never removed"},
	"gc-total-allocated": {
		"ディスク上の割り当て (st_blocks × 512、du と同じ数え方): %s",
		"on disk (allocated, st_blocks × 512, as du counts): %s"},
	"gc-progress-log-scan":   {"river gc: 走査中 (これまでに %s ファイル)", "river gc: scanning (%s files so far)"},
	"gc-progress-log-delete": {"river gc: 削除中 (%s/%s)", "river gc: deleting (%s of %s)"},
}
