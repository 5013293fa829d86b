//go:build linux

// Package config turns river-gc's flag values into a validated run
// (gc.Config) and is the one place where --root is read and the root
// opened, a directory or an s3:// bucket prefix: the only root-kind
// branch outside internal/backend (SPEC I1, I4).
//
// Every check runs before anything is scanned, locked or deleted. A bad
// invocation is an *Error carrying a catalog key and its arguments; it
// is worded only at the edge, in the run's language (Words). The package
// prints nothing.
package config

import (
	"errors"
	"fmt"
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

// Flags are river-gc's flags as given, kong's model of them (the tags):
// seed 000's flags plus SPEC Part B's additions. Numbers are taken as
// text so that they can be validated with exact decimal rules and echoed
// verbatim in retention.
type Flags struct {
	RetentionDays []string `name:"retention-days" sep:"none" placeholder:"[SCOPE=]N" help:"${h_retention_days}"`
	MaxEntries    []string `name:"max-entries" sep:"none" placeholder:"[SCOPE=]N" help:"${h_max_entries}"`
	MaxSizeMb     []string `name:"max-size-mb" sep:"none" placeholder:"[SCOPE=]N" help:"${h_max_size_mb}"`
	KeepWithin    string   `name:"keep-within" placeholder:"DURATION" help:"${h_keep_within}"`
	Now           string   `placeholder:"RFC3339" help:"${h_now}"`
	Scope         []string `sep:"none" placeholder:"SCOPE" complete:"memory,evals,review-artifacts,tmp,runs,memory-entries,eval-ledger,all" help:"${h_scope}"`
	Exclude       []string `sep:"none" placeholder:"GLOB" help:"${h_exclude}"`
	DryRun        bool     `name:"dry-run" help:"${h_dry_run}"`
	Force         bool     `help:"${h_force}"`
	JSON          bool     `name:"json" help:"${h_j_s_o_n}"`
	OutputFile    string   `name:"output-file" placeholder:"PATH" help:"${h_output_file}"`
	PlanOut       string   `name:"plan-out" placeholder:"FILE" help:"${h_plan_out}"`
	Apply         string   `name:"apply" placeholder:"FILE" help:"${h_apply}"`
	JSONFormat    string   `name:"json-format" enum:"gc,findings,artifact" default:"gc" help:"${h_j_s_o_n_format}"`
	Quiet         bool     `help:"${h_quiet}"`
	Debug         bool     `help:"${h_debug}"`
	Root          string   `placeholder:"DIR" help:"${h_root}"`
	SummaryFile   string   `name:"summary-file" placeholder:"PATH" help:"${h_summary_file}"`
	Verbose       bool     `help:"${h_verbose}"`
	Explain       []string `sep:"none" placeholder:"PATH" help:"${h_explain}"`
	EmitInventory bool     `name:"emit-inventory" help:"${h_emit_inventory}"`
	Timestamp     string   `enum:"metadata,mtime" default:"metadata" help:"${h_timestamp}"`
	Lang          string   `enum:"en,ja" default:"${lang}" help:"${h_lang}"`
}

// Config is a validated run: the flags as given, the run they configure
// and the warnings found while reading them.
type Config struct {
	Flags
	// Run is the run, its root open: the caller closes Run.Root.
	Run gc.Config
	// RootName is the root's absolute name, as the record and the plan
	// name it: a directory's absolute path, or the s3:// URL.
	RootName string
	// Notes are warnings about the flags, for stderr before the run
	// (--quiet does not hide them).
	Notes []Note
}

// Note is a warning about the flags, found while reading them: a catalog
// key and its arguments. A value that does nothing is as easy to miss as
// an unused --exclude.
type Note struct {
	Key  string
	Args []any
}

// note records a warning about the flags.
func (c *Config) note(key string, args ...any) { c.Notes = append(c.Notes, Note{key, args}) }

// Load validates every flag before anything is scanned (seed 000: "these
// errors are caught before any skill runs") and opens the root. The clock
// is read here and only when --now is absent.
//
// set holds the flags given on the command line: an empty value given
// explicitly is a config error, never "unset" (SPEC B2), so a blank CI
// variable cannot quietly switch to the clock or to stdout.
func Load(f Flags, set map[string]bool) (Config, error) {
	c := Config{Flags: f}
	if err := f.combinations(set); err != nil {
		return c, err
	}
	if err := c.policies(); err != nil {
		return c, err
	}
	root, names, err := c.openRoot(set["root"])
	if err != nil {
		return c, err
	}
	if c.Run.Excludes, err = normalizeExcludes(c.Exclude, names); err == nil {
		err = c.outputs(root, set)
	}
	if err != nil {
		root.Close()
	}
	return c, err
}

// combinations refuses empty values and flags that do not go together.
func (f *Flags) combinations(set map[string]bool) error {
	for _, v := range []struct {
		name, value string
	}{{"now", f.Now}, {"output-file", f.OutputFile}, {"root", f.Root}, {"summary-file", f.SummaryFile}, {"plan-out", f.PlanOut}, {"apply", f.Apply}, {"keep-within", f.KeepWithin}} {
		if set[v.name] && strings.TrimSpace(v.value) == "" {
			return Invalid("gc-cfg-empty", "--"+v.name)
		}
	}
	for _, list := range []struct {
		name   string
		values []string
	}{{"scope", f.Scope}, {"exclude", f.Exclude}, {"retention-days", f.RetentionDays}, {"max-entries", f.MaxEntries},
		{"max-size-mb", f.MaxSizeMb}} {
		for _, v := range list.values {
			if strings.TrimSpace(v) == "" {
				return Invalid("gc-cfg-empty", "--"+list.name)
			}
		}
	}
	if len(f.Explain) > 0 {
		for _, other := range []struct {
			set  bool
			name string
		}{{f.Force, "--force"}, {f.JSON, "--json"}, {f.EmitInventory, "--emit-inventory"}, {f.SummaryFile != "", "--summary-file"}} {
			if other.set {
				return Invalid("gc-cfg-explain-with", other.name)
			}
		}
		if slices.Contains(f.Explain, "") {
			return Invalid("gc-cfg-empty", "--explain")
		}
	}
	switch {
	case f.EmitInventory && (f.Force || f.JSON || f.SummaryFile != ""):
		return Invalid("gc-cfg-emit-with")
	case f.Quiet && f.Debug:
		return Invalid("gc-cfg-quiet-debug")
	case f.OutputFile != "" && !f.JSON:
		return Invalid("gc-cfg-needs-json", "--output-file")
	case set["json-format"] && !f.JSON:
		return Invalid("gc-cfg-needs-json", "--json-format")
	}
	return nil
}

// policies reads the scopes, the retention flags, the --exclude patterns'
// syntax, --keep-within and --now into c.Run.
func (c *Config) policies() error {
	scopes, err := ResolveScopes(c.Scope)
	if err != nil {
		return err
	}
	for i, s := range c.Scope {
		if slices.Index(c.Scope, s) < i && slices.Index(c.Scope[i+1:], s) < 0 {
			c.note("gc-cli-warn-scope-repeated", s)
		}
	}
	retention, perScope, err := c.policy(scopes)
	if err != nil {
		return err
	}
	for _, p := range c.Exclude {
		if gitignore.Validate(p) != nil && strings.Contains(p, ",") && allValid(strings.Split(p, ",")) {
			return listHint("--exclude", p)
		}
		if err := gitignore.Validate(p); err != nil {
			return &Error{Err: err, Flag: "--exclude"}
		}
	}
	keepWithin, err := keepWithinSeconds(c.KeepWithin)
	if err != nil {
		return err
	}
	now := time.Now().Unix()
	if c.Now != "" {
		var ok bool
		if now, ok = rfc3339.Unix(c.Now); !ok || now < 0 {
			return Invalid("gc-cfg-now", q(c.Now))
		}
	}
	mode := gc.DryRun
	if c.Force && !c.DryRun {
		mode = gc.Force
	}
	c.Run = gc.Config{Scopes: scopes, Retention: retention, PerScope: perScope, Now: now, KeepWithin: keepWithin, Mode: mode,
		Metadata: c.Timestamp == "metadata",
		// --verbose lists the protected files too (SPEC B7).
		ListProtected: c.Verbose}
	return nil
}

// outputs checks the output files against the opened root, makes their
// folders, reads the git index and applies --plan-out and --apply.
func (c *Config) outputs(root *gc.Root, set map[string]bool) error {
	c.Run.Root = root
	if err := CheckOutputFiles(root, c.OutputFile, c.SummaryFile); err != nil {
		return err
	}
	// The output files' folders are made now, before anything is judged
	// or deleted: a folder that cannot be made is a config error, never a
	// failure found after the deletions (SPEC B5).
	for _, f := range []struct{ name, path string }{{"output-file", c.OutputFile}, {"summary-file", c.SummaryFile}} {
		if f.path == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return &Error{Err: &outfile.Error{Flag: f.name, Path: f.path, Err: err}}
		}
	}
	tracked, err := trackedOf(root)
	if err != nil {
		return err
	}
	c.Run.Tracked = tracked
	return c.planFlags(set)
}

// ResolveScopes expands all (seed 000's four scopes), de-duplicates and
// orders the scopes as skill.Scopes() does.
func ResolveScopes(given []string) ([]skill.Scope, error) {
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

// CheckOutputFiles is outfile.Check, a config error when it refuses.
func CheckOutputFiles(root *gc.Root, outputFile, summaryFile string) error {
	if err := outfile.Check(root, outputFile, summaryFile); err != nil {
		return &Error{Err: err}
	}
	return nil
}

// Late turns a check that failed after the run into a runtime failure
// (exit 1): by then files may have been deleted, so it is no config error.
func Late(err error) error {
	var cfg *Error
	if errors.As(err, &cfg) {
		return fmt.Errorf("changed during the run: %w", cfg.Err)
	}
	return err
}
