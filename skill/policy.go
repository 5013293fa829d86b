package skill

import (
	"math"

	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
)

// retentionQuestions returns one invalid-retention question per key that
// makes the policy meaningless (SPEC A8), in the order days, maxEntries,
// maxSizeMb. Validity is decided on the exact decimal value.
func retentionQuestions(r Retention) []Question {
	var qs []Question
	ask := func(key string, n jsonnum.Number) {
		qs = append(qs, Question{Kind: QuestionInvalidRetention, Key: key, Literal: n.Literal})
	}
	if r.Days.Negative {
		ask("days", r.Days)
	}
	if r.MaxEntries.Negative || r.MaxEntries.Zero || !r.MaxEntries.Integral {
		ask("maxEntries", r.MaxEntries)
	}
	if r.MaxSizeMb.Negative || r.MaxSizeMb.Zero {
		ask("maxSizeMb", r.MaxSizeMb)
	}
	return qs
}

// policy is a valid retention policy in the arithmetic of SPEC A3.
type policy struct {
	now        int64
	cutoff     float64 // float64(now) − days × 86400, IEEE-754
	maxEntries int64
	limit      Bytes // floor(maxSizeMb × 1048576)
	unlimited  bool  // limit beyond 128 bits: no sum can exceed it
}

func newPolicy(r Retention, now int64) policy {
	p := policy{now: now, cutoff: float64(now) - r.Days.Float64()*86400}
	var ok bool
	if p.maxEntries, ok = r.MaxEntries.Int64(); !ok {
		p.maxEntries = math.MaxInt64 // integral and beyond int64: never reached
	}
	p.limit, p.unlimited = floorBytes(r.MaxSizeMb.Float64() * 1048576)
	return p
}

// keepAll is a policy under which no entry is ever removed.
func keepAll(now int64) policy {
	return policy{now: now, cutoff: math.Inf(-1), maxEntries: math.MaxInt64, unlimited: true}
}

// aged reports whether a usable mtime is older than the cutoff.
func (p policy) aged(mtime int64) bool { return float64(mtime) < p.cutoff }

// mtimeAge is the age in whole days, floored.
func (p policy) mtimeAge(mtime int64) int64 {
	d := p.now - mtime
	if d < 0 && d%86400 != 0 {
		return d/86400 - 1
	}
	return d / 86400
}

// exceeds reports whether a cumulative size is over the size limit.
func (p policy) exceeds(cum Bytes) bool { return !p.unlimited && p.limit.Less(cum) }
