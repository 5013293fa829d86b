//go:build linux

package gc

// Ahead reports whether a warning is about what the run is about to
// delete: fresh files taken by the count or size limit, and the "more
// than 80%" rule (SPEC B9). A --force run tells Config.BeforeDelete
// about these before its first deletion.
func Ahead(k WarningKind) bool { return k == WarnFreshRemoved || k == WarnAggressive }

// warnAhead tells cfg.BeforeDelete, in force mode and before anything is
// deleted or rewritten, the judgement's Ahead warnings in their output
// order. Nothing is said when nothing is to go or nothing warns.
func (cfg Config) warnAhead(j *judgement) {
	if cfg.BeforeDelete == nil || cfg.Mode != Force || (len(j.targets) == 0 && len(j.rewrites) == 0) {
		return
	}
	var ahead Outcome
	for _, w := range j.out.Warnings {
		if Ahead(w.Kind) {
			ahead.Warnings = append(ahead.Warnings, w)
		}
	}
	if len(ahead.Warnings) == 0 {
		return
	}
	ahead.sort()
	cfg.BeforeDelete(ahead.Warnings)
}
