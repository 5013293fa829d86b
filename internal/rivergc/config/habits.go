//go:build linux

package config

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/cliparse"
	"github.com/plangate-gc/plangate-gc/skill"
)

// shortFlags are the short flags other tools taught a user's fingers
// (rm -f, make -n, …) and the long flag each means in river-gc, which has
// no short flag but -h: a hint, never a silent alias (a -f that deletes
// would be a surprise too).
var shortFlags = map[string]string{"-n": "--dry-run", "-f": "--force", "-q": "--quiet", "-v": "--verbose"}

// unexpectedArg is kong's message for a positional argument (v1.17).
var unexpectedArg = regexp.MustCompile(`^unexpected argument (\S+)`)

// Habit words a parse error that a habit from elsewhere explains
// (SPEC B7): a short flag, "river-gc gc", a glob the shell expanded into
// file names. It returns nil when none does, and kong's error stands.
func Habit(err error, args []string) error {
	var flag *cliparse.Error
	if errors.As(err, &flag) && flag.Err == cliparse.ErrUnknownFlag {
		if long, ok := shortFlags[flag.Flag]; ok {
			return Invalid("gc-cfg-short-flag", flag.Flag, long)
		}
		return nil
	}
	m := unexpectedArg.FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	at := positional(args, m[1])
	if at < 0 {
		return nil
	}
	if args[at] == "gc" {
		return Invalid("gc-cfg-gc-word", strings.TrimSpace("river-gc "+strings.Join(slices.Delete(slices.Clone(args), at, at+1), " ")))
	}
	// The names a glob became: the argument and the ones after it, and
	// the value of an --exclude just before them.
	names := []string{}
	if at > 0 && (args[at-1] == "--exclude" || strings.HasPrefix(args[at-1], "--exclude=")) {
		names = append(names, strings.TrimPrefix(strings.TrimPrefix(args[at-1], "--exclude"), "="))
	} else if at > 1 && args[at-2] == "--exclude" {
		names = append(names, args[at-1])
	}
	for _, a := range args[at:] {
		if strings.HasPrefix(a, "-") {
			break
		}
		names = append(names, a)
	}
	if len(names) >= 2 && allExist(names) {
		return Invalid("gc-cfg-expanded-glob", q(m[1]), strconv.Itoa(len(names)), globOf(names))
	}
	return Invalid("gc-cfg-unexpected", q(m[1]))
}

// positional is the index in args of arg as a positional argument (not a
// flag's value given as --flag=value), or -1.
func positional(args []string, arg string) int {
	for i, a := range args {
		if a == "--" {
			return -1
		}
		if a == arg {
			return i
		}
	}
	return -1
}

// allExist reports whether every name is something in the file system
// (not followed when a symlink): then they most likely came from a glob.
func allExist(names []string) bool {
	for _, n := range names {
		if _, err := os.Lstat(n); err != nil {
			return false
		}
	}
	return true
}

// globOf is a pattern the names may have come from: their common folder
// with "*" and their common extension ("artifacts/keep/*.log"), or "*"
// alone, so that `--exclude *.log` is answered with '*.log', not '*'.
func globOf(names []string) string {
	dir := filepath.Dir(names[0])
	ext := filepath.Ext(names[0])
	for _, n := range names[1:] {
		for dir != "." && dir != "/" && !strings.HasPrefix(n, dir+"/") {
			dir = filepath.Dir(dir)
		}
		if filepath.Ext(n) != ext {
			ext = ""
		}
	}
	if dir == "." || dir == "/" {
		return "*" + ext
	}
	return dir + "/*" + ext
}

// daysSuffix matches a number with a unit of days ("7d", "7 days").
var daysSuffix = regexp.MustCompile(`^\s*([0-9][0-9.]*)\s*(d|day|days)\s*$`)

// valueHabit words a retention value written as another tool would take
// it: "7d" for --retention-days (days are implied), "tmp:7" for tmp=7. It
// returns nil when the value is not one of those.
func valueHabit(flag, v string) error {
	scope, value, scoped := strings.Cut(v, "=")
	if !scoped {
		if s, n, ok := strings.Cut(v, ":"); ok && skill.Scope(s).Valid() {
			return Invalid("gc-cfg-colon", flag, q(v), flag, s+"="+n)
		}
		value = v
	}
	if m := daysSuffix.FindStringSubmatch(value); m != nil && flag == "--retention-days" {
		fix := m[1]
		if scoped {
			fix = scope + "=" + fix
		}
		return Invalid("gc-cfg-days-implied", flag, q(v), flag, fix)
	}
	return nil
}
