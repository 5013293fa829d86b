// Package riverreview holds the files River Review consumes: SKILL.md for
// its skill registry. Its tests check them against upstream's contracts.
package riverreview
