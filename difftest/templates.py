# -*- coding: utf-8 -*-
"""Text templates copied byte for byte from docs/spec.md A10 (do not edit by hand)."""

TEMPLATES = {
    'summary': '(summary):1: scope {scope}: keep {keep}, remove {remove}, hard-guarded {hardGuarded}, excluded {excluded}',
    'w_guard_exclude': '(warning):1: [severity=major] hard guard {path} が exclude glob と重複しています。保持は維持されますが設定を整理してください。',
    'w_guard_retention': '(warning):1: [severity=major] hard guard {path} が retention 設定 (age) と重複しています。保持は維持されますが設定を整理してください。',
    'w_unguarded': '(warning):1: [severity=major] single-source {path} が hardGuards に含まれていないため、組み込みの保護で保持しました。',
    'w_mtime_missing': '(warning):1: [severity=major] mtimeEpoch が欠けている {n} 件を評価から除外しました (例: {first})。',
    'w_mtime_inconsistent': '(warning):1: [severity=major] mtimeEpoch が 0 以下または未来値の {n} 件を inventory 不整合として評価から除外しました (例: {first})。',
    'w_duplicate': '(warning):1: [severity=major] 同一パスが重複している {n} 件を inventory 不整合として評価から除外しました (例: {first})。',
    'w_aggressive': '(warning):1: [severity=major] scope {scope} で REMOVE 判定が inventory の 80% を超えています ({remove}/{total})。retention が過度に攻撃的な可能性があります。',
    'q_invalid_retention': '(question):1: retention 設定が不整合です ({key}={literal})。評価を行わずに人間の確認を求めます。',
    'q_unreliable_mtime': '(question):1: mtimeEpoch が使用できないエントリが inventory の 50% を超えています ({n}/{total})。age 判定が信頼できないため削除判定を保留します。',
    'q_guards_not_supplied': '(question):1: scope {scope} の single-source ({path}) を保護する hardGuards が渡されていません。呼び出し側の設定を確認してください。',
    'r_age': '{path}:0: [severity=minor] reason=age, sizeBytes={n}, mtimeAge={days}日',
    'r_count': '{path}:0: [severity=minor] reason=count, sizeBytes={n}, rank={rank}',
    'r_size': '{path}:0: [severity=minor] reason=size, sizeBytes={n}, cumulativeBytes={c}',
}
NO_REVIEW = 'NO_REVIEW: plangate-gc-deterministic — inventory / retention config が不足'
