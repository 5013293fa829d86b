package main

import (
	"os"
	"slices"
	"time"

	"github.com/plangate-gc/plangate-gc/gc"
	"github.com/plangate-gc/plangate-gc/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/rfc3339"
	"github.com/plangate-gc/plangate-gc/jsonnum"
	"github.com/plangate-gc/plangate-gc/skill"
)

// config validates every flag before anything is scanned (seed 000: "these
// errors are caught before any skill runs"). The clock is read here and
// only when --now is absent.
func (c *cli) config() (gc.Config, error) {
	var cfg gc.Config
	if c.Quiet && c.Debug {
		return cfg, configErrorf("--quiet and --debug are mutually exclusive")
	}
	if c.OutputFile != "" && !c.JSON {
		return cfg, configErrorf("--output-file needs --json")
	}
	if st, err := os.Stat(c.OutputFile); c.OutputFile != "" && err == nil && st.IsDir() {
		return cfg, configErrorf("--output-file %q is a directory", c.OutputFile)
	}
	scopes, err := resolveScopes(c.Scope)
	if err != nil {
		return cfg, err
	}
	days, ok := jsonnum.Parse(c.RetentionDays)
	if !ok || days.Negative {
		return cfg, configErrorf("--retention-days %q: want a number ≥ 0", c.RetentionDays)
	}
	entries, ok := jsonnum.Parse(c.MaxEntries)
	if !ok || !entries.Integral || entries.Negative || entries.Zero {
		return cfg, configErrorf("--max-entries %q: want an integer ≥ 1", c.MaxEntries)
	}
	size, ok := jsonnum.Parse(c.MaxSizeMb)
	if !ok || size.Negative || size.Zero {
		return cfg, configErrorf("--max-size-mb %q: want a number > 0", c.MaxSizeMb)
	}
	for _, p := range c.Exclude {
		if err := gitignore.Validate(p); err != nil {
			return cfg, configErrorf("--exclude: %w", err)
		}
	}
	now := time.Now().Unix()
	if c.Now != "" {
		var ok bool
		if now, ok = rfc3339.Unix(c.Now); !ok || now < 0 {
			return cfg, configErrorf("--now %q: want an RFC 3339 timestamp from 1970 on, such as 2025-11-29T00:00:00Z", c.Now)
		}
	}
	if st, err := os.Stat(c.Root); err != nil || !st.IsDir() {
		return cfg, configErrorf("--root %q: not an existing directory", c.Root)
	}
	mode := gc.DryRun
	if c.Force && !c.DryRun {
		mode = gc.Force
	}
	return gc.Config{
		Root:      c.Root,
		Scopes:    scopes,
		Retention: skill.Retention{Days: days, MaxEntries: entries, MaxSizeMb: size},
		Now:       now,
		Excludes:  c.Exclude,
		Mode:      mode,
		Metadata:  c.Timestamp == "metadata",
	}, nil
}

// resolveScopes expands all, de-duplicates and orders the scopes as
// memory, evals, review-artifacts, tmp.
func resolveScopes(given []string) ([]skill.Scope, error) {
	if len(given) == 0 {
		given = []string{"all"}
	}
	want := map[skill.Scope]bool{}
	for _, s := range given {
		switch {
		case s == "all":
			for _, sc := range skill.Scopes() {
				want[sc] = true
			}
		case skill.Scope(s).Valid():
			want[skill.Scope(s)] = true
		default:
			return nil, configErrorf("--scope %q: want memory, evals, review-artifacts, tmp or all", s)
		}
	}
	return slices.DeleteFunc(skill.Scopes(), func(s skill.Scope) bool { return !want[s] }), nil
}
