package skill

// finish applies the unreliable-mtime handoff and gathers warnings and
// questions in the fixed orders of SPEC A8 and A9.
func (j *judgement) finish() {
	c := &j.res.Counts
	total := c.Keep + c.Remove
	unusable := c.MtimeMissing + c.MtimeInconsistent
	if 2*unusable > total {
		j.res.Status = StatusHandoff
		for _, d := range j.res.Removed {
			j.keep(d.SizeBytes)
		}
		c.Remove, j.res.Removed = 0, nil
		j.res.Questions = append(j.res.Questions, Question{Kind: QuestionUnreliableMtime, N: unusable, Total: total})
	}
	if j.res.Removed == nil {
		j.res.Removed = []Decision{}
	}
	j.res.Questions = append(j.res.Questions, guardsQuestion(j.in.Scope, j.input)...)
	w := &j.res.Warnings
	for _, p := range j.guardExcl {
		*w = append(*w, Warning{Kind: WarnGuardExclude, Path: p})
	}
	for _, p := range j.guardAge {
		*w = append(*w, Warning{Kind: WarnGuardRetention, Path: p})
	}
	for _, p := range j.unguarded {
		*w = append(*w, Warning{Kind: WarnUnguardedSingleSource, Path: p})
	}
	counted := func(kind WarningKind, paths []string) {
		if len(paths) > 0 {
			*w = append(*w, Warning{Kind: kind, N: len(paths), First: paths[0]})
		}
	}
	counted(WarnMtimeMissing, j.missing)
	counted(WarnMtimeInconsistent, j.inconsist)
	counted(WarnDuplicate, j.duplicated)
	if 5*c.Remove > 4*total {
		*w = append(*w, Warning{Kind: WarnAggressive, Remove: c.Remove, Total: total})
	}
}

// guardsQuestion is the advisory guards-not-supplied question (SPEC A8):
// for memory and review-artifacts, the caller's hardGuards must cover the
// scope's single source. It does not depend on the judgement, so it is
// asked even when invalid retention blocks the document.
func guardsQuestion(s Scope, input guards) []Question {
	if s != ScopeMemory && s != ScopeReviewArtifacts {
		return nil
	}
	if src := s.SingleSource(); !input.cover(src) {
		return []Question{{Kind: QuestionGuardsNotSupplied, Path: src}}
	}
	return nil
}
