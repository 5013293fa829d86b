//go:build linux

package config

import (
	"errors"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/cliparse"
	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/outfile"
	"github.com/plangate-gc/plangate-gc/render"
)

// Words words, in lang, an error this package or another returned typed:
// a config error (*Error), the command line's (cliparse), a malformed
// pattern (gitignore), an output file refused (outfile), a plan file that
// cannot be used, an unreadable git index. What none of them types is
// printed as it comes.
func Words(err error, lang render.Lang) string {
	var (
		flag  *cliparse.Error
		pat   *gitignore.PatternError
		out   *outfile.Error
		same  *outfile.SameFileError
		index *IndexError
		pf    *planFileError
		cfg   *Error
	)
	switch {
	case err == nil:
		return "?"
	case errors.As(err, &cfg):
		return cfg.Words(lang)
	case errors.As(err, &flag):
		return flagWords(flag, lang)
	case errors.As(err, &pat):
		return patternWords(pat, lang)
	case errors.As(err, &same):
		return render.Message(lang, "gc-cfg-same-file", same.First, same.Second, same.Path)
	case errors.As(err, &out):
		name := "--" + out.Flag
		if out.Path != "" {
			name += " " + out.Path
		}
		return name + ": " + outfileCause(out.Err, lang)
	case errors.As(err, &pf):
		return pf.words(lang)
	case errors.As(err, &index):
		return render.Message(lang, "gc-cfg-index", index.Err.Error())
	}
	return err.Error()
}

// patternWords words a malformed --exclude pattern: an empty or comment
// pattern is wrong as a whole (its Offset is 0 and not worded), the others
// at the offset named.
func patternWords(pat *gitignore.PatternError, lang render.Lang) string {
	if pat.Code == gitignore.CodeEmpty || pat.Code == gitignore.CodeComment {
		return render.Message(lang, "gc-cfg-pattern-"+string(pat.Code), q(pat.Pattern))
	}
	return render.Message(lang, "gc-cfg-pattern-"+string(pat.Code), q(pat.Pattern), strconv.Itoa(pat.Offset))
}

// flagWords words a command-line error.
func flagWords(e *cliparse.Error, lang render.Lang) string {
	hint := e.Hint
	if e.HintKind != "" {
		args := make([]any, len(e.HintArgs))
		for i, a := range e.HintArgs {
			args[i] = a
		}
		hint = render.Message(lang, "gc-cfg-hint-"+e.HintKind, args...)
	}
	var s string
	switch e.Err {
	case cliparse.ErrUnknownFlag:
		s = render.Message(lang, "gc-cfg-unknown-flag", e.Flag)
	case cliparse.ErrMissingValue:
		s = render.Message(lang, "gc-cfg-missing-value", e.Flag)
	default:
		if hint == "" {
			return e.Flag + ": " + e.Err.Error()
		}
		return e.Flag + ": " + hint
	}
	if hint != "" {
		s += render.Message(lang, "gc-cfg-hint-sep") + hint
	}
	return s
}

// outfileCause words why an output file was refused.
func outfileCause(err error, lang render.Lang) string {
	var prot *outfile.ProtectedError
	switch {
	case errors.Is(err, outfile.ErrNotRegular):
		// outfile adds the kind of file found: " (d---------)".
		return render.Message(lang, "gc-cfg-out-not-regular") + strings.TrimPrefix(err.Error(), outfile.ErrNotRegular.Error())
	case errors.Is(err, outfile.ErrLinked):
		return render.Message(lang, "gc-cfg-out-linked")
	case errors.As(err, &prot):
		return render.Message(lang, "gc-cfg-out-protected", protectedWhat(prot.Role, lang))
	}
	return err.Error()
}

// listHint is a value holding a comma, most likely meant as several flags:
// the error shows the flags to type instead.
func listHint(flag, value string) error {
	parts := strings.Split(value, ",")
	for i, p := range parts {
		parts[i] = flag + " " + p
	}
	return Invalid("gc-cfg-list", flag, q(value), strings.Join(parts, " "))
}

// protectedWhat words what outfile says an output path is.
func protectedWhat(r outfile.Role, lang render.Lang) string {
	if r.Name == "" { // the journal, a scope directory's place
		return render.Message(lang, "gc-cfg-what-"+string(r.Kind))
	}
	return render.Message(lang, "gc-cfg-what-"+string(r.Kind), r.Name)
}
