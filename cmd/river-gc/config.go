//go:build linux

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/rfc3339"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/outfile"
	"github.com/plangate-gc/plangate-gc/skill"
)

// config validates every flag before anything is scanned (seed 000: "these
// errors are caught before any skill runs"). The clock is read here and
// only when --now is absent.
//
// set holds the flags given on the command line: an empty value given
// explicitly is a config error, never "unset" (SPEC B2), so a blank CI
// variable cannot quietly switch to the clock or to stdout.
func (c *cli) config(set map[string]bool) (gc.Config, error) {
	var cfg gc.Config
	for _, f := range []struct {
		name, value string
	}{{"now", c.Now}, {"output-file", c.OutputFile}, {"root", c.Root}, {"summary-file", c.SummaryFile}, {"plan-out", c.PlanOut}, {"apply", c.Apply}, {"keep-within", c.KeepWithin}} {
		if set[f.name] && strings.TrimSpace(f.value) == "" {
			return cfg, configErr("gc-cfg-empty", "--"+f.name)
		}
	}
	for _, list := range []struct {
		name   string
		values []string
	}{{"scope", c.Scope}, {"exclude", c.Exclude}, {"retention-days", c.RetentionDays}, {"max-entries", c.MaxEntries},
		{"max-size-mb", c.MaxSizeMb}} {
		for _, v := range list.values {
			if strings.TrimSpace(v) == "" {
				return cfg, configErr("gc-cfg-empty", "--"+list.name)
			}
		}
	}
	if len(c.Explain) > 0 {
		for _, other := range []struct {
			set  bool
			name string
		}{{c.Force, "--force"}, {c.JSON, "--json"}, {c.EmitInventory, "--emit-inventory"}, {c.SummaryFile != "", "--summary-file"}} {
			if other.set {
				return cfg, configErr("gc-cfg-explain-with", other.name)
			}
		}
		for _, p := range c.Explain {
			if p == "" {
				return cfg, configErr("gc-cfg-empty", "--explain")
			}
		}
	}
	if c.EmitInventory && (c.Force || c.JSON || c.SummaryFile != "") {
		return cfg, configErr("gc-cfg-emit-with")
	}
	if c.Quiet && c.Debug {
		return cfg, configErr("gc-cfg-quiet-debug")
	}
	if c.OutputFile != "" && !c.JSON {
		return cfg, configErr("gc-cfg-needs-json", "--output-file")
	}
	if set["json-format"] && !c.JSON {
		return cfg, configErr("gc-cfg-needs-json", "--json-format")
	}
	scopes, err := resolveScopes(c.Scope)
	if err != nil {
		return cfg, err
	}
	for i, s := range c.Scope {
		if slices.Index(c.Scope, s) < i && slices.Index(c.Scope[i+1:], s) < 0 {
			c.note("gc-cli-warn-scope-repeated", s)
		}
	}
	retention, perScope, err := c.policy(scopes)
	if err != nil {
		return cfg, err
	}
	for _, p := range c.Exclude {
		if gitignore.Validate(p) != nil && strings.Contains(p, ",") && allValid(strings.Split(p, ",")) {
			return cfg, listHint("--exclude", p)
		}
		if err := gitignore.Validate(p); err != nil {
			return cfg, &configError{err: err, flag: "--exclude"}
		}
	}
	keepWithin, err := keepWithinSeconds(c.KeepWithin)
	if err != nil {
		return cfg, err
	}
	now := time.Now().Unix()
	if c.Now != "" {
		var ok bool
		if now, ok = rfc3339.Unix(c.Now); !ok || now < 0 {
			return cfg, configErr("gc-cfg-now", q(c.Now))
		}
	}
	root, err := openAnyRoot(c.Root, set["root"], c.Force && !c.DryRun)
	if err != nil {
		return cfg, err
	}
	excludes, err := normalizeExcludes(c.Exclude, root.Path)
	if err != nil {
		root.Close()
		return cfg, err
	}
	if err := checkOutputFiles(root, c.OutputFile, c.SummaryFile); err != nil {
		root.Close()
		return cfg, err
	}
	// The output files' folders are made now, before anything is judged
	// or deleted: a folder that cannot be made is a config error, never a
	// failure found after the deletions (SPEC B5).
	for _, f := range []struct{ name, path string }{{"output-file", c.OutputFile}, {"summary-file", c.SummaryFile}} {
		if f.path == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			root.Close()
			return cfg, &configError{err: &outfile.Error{Flag: f.name, Path: f.path, Err: err}}
		}
	}
	// Tracked files are protected like hard guards (SPEC B2). An index
	// that cannot be read protects nothing we could trust, so the run
	// stops before anything is judged rather than risk a tracked file.
	if v := gitEnvOverride(os.Getenv); v != "" && hasGitIndex(root) {
		root.Close()
		return cfg, configErr("gc-cfg-git-env", v, v)
	}
	tracked, err := trackedOf(root)
	if err != nil {
		root.Close()
		return cfg, &indexError{err: err}
	}
	mode := gc.DryRun
	if c.Force && !c.DryRun {
		mode = gc.Force
	}
	return c.planned(gc.Config{
		Root:       root,
		Tracked:    tracked,
		Scopes:     scopes,
		Retention:  retention,
		PerScope:   perScope,
		Now:        now,
		KeepWithin: keepWithin,
		Excludes:   excludes,
		Mode:       mode,
		Metadata:   c.Timestamp == "metadata",
		// --verbose lists the protected files too (SPEC B7).
		ListProtected: c.Verbose,
	}, set)
}

// resolveScopes expands all (seed 000's four scopes), de-duplicates and
// orders the scopes as skill.Scopes() does.
func resolveScopes(given []string) ([]skill.Scope, error) {
	if len(given) == 0 {
		given = []string{"all"}
	}
	want := map[skill.Scope]bool{}
	for _, s := range given {
		switch {
		case s == "all":
			for _, sc := range skill.DefaultScopes() {
				want[sc] = true
			}
		case skill.Scope(s).Valid():
			want[skill.Scope(s)] = true
		case strings.Contains(s, ","):
			return nil, listHint("--scope", s)
		default:
			return nil, scopeError(s)
		}
	}
	return slices.DeleteFunc(skill.Scopes(), func(s skill.Scope) bool { return !want[s] }), nil
}

// allValid reports whether every pattern is well-formed: then a malformed
// comma-separated --exclude was most likely meant as several flags.
func allValid(patterns []string) bool {
	for _, p := range patterns {
		if gitignore.Validate(p) != nil {
			return false
		}
	}
	return true
}

// gitEnvVars are the git environment variables (git(1), ENVIRONMENT)
// that change which repository, work tree or index git uses. river gc
// honours none of them: each, set non-empty, is a config error, so that
// no git setup can make a tracked file look untracked (SPEC B4).
// GIT_DISCOVERY_ACROSS_FILESYSTEM set to a false value is git's default
// and is accepted. Variables that only move objects or refs
// (GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_NAMESPACE)
// do not change the index and are ignored (decision 42).
var gitEnvVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_CEILING_DIRECTORIES"}

// gitEnvOverride returns the first of gitEnvVars that getenv reports set
// in a way river gc does not follow, or "".
func gitEnvOverride(getenv func(string) string) string {
	for _, v := range gitEnvVars {
		val := getenv(v)
		if v == "GIT_DISCOVERY_ACROSS_FILESYSTEM" && gitFalse(val) {
			continue
		}
		if val != "" {
			return v
		}
	}
	return ""
}

// gitFalse reports whether git's boolean parsing reads s as false
// ("false", "no", "off", "0", case-insensitive; git reads an unset or
// empty value as false too).
func gitFalse(s string) bool {
	switch strings.ToLower(s) {
	case "", "false", "no", "off", "0":
		return true
	}
	return false
}
