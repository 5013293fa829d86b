// Package riverreview holds the files River Review consumes: SKILL.md for
// its skill registry. Its tests check them against upstream's contracts,
// and prove river gc's store scopes against upstream's own code: a year of
// upstream's writers simulated under a faked clock (testdata/), asked
// through upstream's readers before and after river-gc --force.
package riverreview
