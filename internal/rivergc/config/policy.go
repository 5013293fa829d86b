//go:build linux

package config

import (
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
	"github.com/plangate-gc/plangate-gc/skill"
)

// retentionFlag is one retention flag: its name, its default, what a
// valid value is, and the words for a bad one.
type retentionFlag struct {
	name, def string
	values    []string
	valid     func(jsonnum.Number) bool
	want      string // the catalog key of a bad value's error
	set       func(r *skill.Retention, n jsonnum.Number)
}

// policy reads the three retention flags (SPEC D6): a plain VALUE is the
// policy of every scope, SCOPE=VALUE that of one scope; the last of each
// wins. It returns the default policy and, for each resolved scope with a
// value of its own, its whole policy (the defaults filled in). A scope
// name must be one of the scopes (selected or not: a CI job may set a
// policy for a scope it selects only sometimes); a policy for a scope not
// selected, and a scope given a value twice by one flag, are warnings
// (c.Notes, SPEC B7). "7d" and "tmp:7" are refused with the fix.
func (c *Config) policy(scopes []skill.Scope) (skill.Retention, map[skill.Scope]skill.Retention, error) {
	flags := []retentionFlag{
		{"retention-days", "90", c.RetentionDays, func(n jsonnum.Number) bool { return !n.Negative }, "gc-cfg-policy-days",
			func(r *skill.Retention, n jsonnum.Number) { r.Days = n }},
		{"max-entries", "1000", c.MaxEntries, func(n jsonnum.Number) bool { return n.Integral && !n.Negative && !n.Zero }, "gc-cfg-policy-entries",
			func(r *skill.Retention, n jsonnum.Number) { r.MaxEntries = n }},
		{"max-size-mb", "500", c.MaxSizeMb, func(n jsonnum.Number) bool { return !n.Negative && !n.Zero }, "gc-cfg-policy-size",
			func(r *skill.Retention, n jsonnum.Number) { r.MaxSizeMb = n }},
	}
	var def skill.Retention
	own := map[skill.Scope][]func(*skill.Retention){}
	for _, f := range flags {
		n, _ := jsonnum.Parse(f.def)
		f.set(&def, n)
		given := map[string]int{}
		for _, v := range f.values {
			if err := valueHabit("--"+f.name, v); err != nil {
				return def, nil, err
			}
			scope, value, scoped := strings.Cut(v, "=")
			if !scoped {
				value = v
			} else if !skill.Scope(scope).Valid() {
				return def, nil, withHint(Invalid("gc-cfg-policy-scope", "--"+f.name, q(v), q(scope)), suggest(scope, false))
			}
			n, ok := jsonnum.Parse(value)
			if !ok || !f.valid(n) {
				return def, nil, Invalid(f.want, "--"+f.name, q(v))
			}
			if !scoped {
				f.set(&def, n)
				continue
			}
			if given[scope]++; given[scope] == 2 {
				c.note("gc-cli-warn-policy-repeated", "--"+f.name, scope, q(lastFor(f.values, scope)))
			}
			if !slices.Contains(scopes, skill.Scope(scope)) {
				c.note("gc-cli-warn-policy-unselected", "--"+f.name, q(v), scope, scope)
			}
			set := f.set
			own[skill.Scope(scope)] = append(own[skill.Scope(scope)], func(r *skill.Retention) { set(r, n) })
		}
	}
	var per map[skill.Scope]skill.Retention
	for _, s := range scopes {
		if sets, ok := own[s]; ok {
			r := def
			for _, set := range sets {
				set(&r)
			}
			if per == nil {
				per = map[skill.Scope]skill.Retention{}
			}
			per[s] = r
		}
	}
	return def, per, nil
}

// lastFor is the last of values that sets scope (SCOPE=VALUE).
func lastFor(values []string, scope string) string {
	last := ""
	for _, v := range values {
		if s, _, ok := strings.Cut(v, "="); ok && s == scope {
			last = v
		}
	}
	return last
}
