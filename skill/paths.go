package skill

import (
	"strings"
	"unicode/utf8"
)

// Canonical reports whether p is a canonical repository-relative path
// (SPEC A4): valid UTF-8, no NUL or backslash, relative, no empty, "." or
// ".." segment and no trailing slash. Anything else is never judged.
func Canonical(p string) bool {
	if p == "" || !utf8.ValidString(p) || strings.ContainsAny(p, "\x00\\") || p[0] == '/' {
		return false
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// InScope reports whether the NFC form of a canonical path belongs to the
// scope (SPEC A6).
func (s Scope) InScope(nfc string) bool {
	switch s {
	case ScopeMemory:
		return strings.HasPrefix(nfc, ".river/memory/")
	case ScopeEvals:
		return strings.HasPrefix(nfc, "artifacts/evals/")
	case ScopeReviewArtifacts:
		name, ok := strings.CutPrefix(nfc, "artifacts/")
		if !ok || strings.Contains(name, "/") {
			return false
		}
		return globAffix(name, "review-artifact", ".json") || globAffix(name, "review-", ".md")
	case ScopeTmp:
		return strings.HasPrefix(nfc, ".river/tmp/") || strings.HasPrefix(nfc, "artifacts/.tmp/")
	}
	return false
}

// globAffix matches name against the glob prefix + "*" + suffix.
func globAffix(name, prefix, suffix string) bool {
	return len(name) >= len(prefix)+len(suffix) && strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix)
}

// SingleSource returns the scope's built-in single source of truth, which
// is always hard-guarded, or "" for tmp, which has none.
func (s Scope) SingleSource() string {
	switch s {
	case ScopeMemory:
		return ".river/memory/index.json"
	case ScopeEvals:
		return "artifacts/evals/latest"
	case ScopeReviewArtifacts:
		return "artifacts/review-artifact.schema.json"
	}
	return ""
}

// guardPrefix turns a hard guard string into the path it protects: a
// trailing "/**" or "/" only says "and everything below" (SPEC A6).
func guardPrefix(g string) string {
	if t, ok := strings.CutSuffix(g, "/**"); ok {
		return t
	}
	return strings.TrimSuffix(g, "/")
}

// covers reports whether the guard prefix protects the path: the path
// itself or anything below it.
func covers(prefix, path string) bool {
	return path == prefix || (strings.HasPrefix(path, prefix) && len(path) > len(prefix) && path[len(prefix)] == '/')
}

// guards is a set of normalised hard-guard prefixes.
type guards []string

// cover reports whether any guard protects path.
func (gs guards) cover(path string) bool {
	for _, g := range gs {
		if covers(g, path) {
			return true
		}
	}
	return false
}
