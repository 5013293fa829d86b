//go:build linux

package gc

// Probe judges cfg's scopes read-only, as a dry-run judges them, and
// returns the judgement alone: no lock, no intent journal read, nothing
// deleted. It is what a hint about scopes the run did not select needs
// (SPEC B9: the store hint), at the cost of reading those scopes once,
// on disk or on a bucket.
func Probe(cfg Config) (Outcome, error) {
	cfg.Mode = DryRun
	j, err := judge(cfg)
	closeRunDirs(j.runDirs)
	if err != nil {
		return Outcome{}, err
	}
	j.out.sort()
	return j.out, nil
}
