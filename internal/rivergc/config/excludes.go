//go:build linux

package config

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
)

// normalizeExcludes makes each --exclude mean what was typed (SPEC B5,
// seed 000's "normalized before matching"): a leading "./" is removed
// (the rest anchored at the root, as "./x" names the root's x), an
// absolute path inside the root becomes root-relative (anchored), and a
// pattern that can never match a root-relative path is a config error:
// an absolute path outside the root, one climbing out with "..", a
// Windows path written with backslashes. A leading "!" is kept. roots
// are the root's absolute local names (none for a bucket).
func normalizeExcludes(patterns []string, roots []string) ([]string, error) {
	out := make([]string, 0, len(patterns))
	for _, p := range patterns {
		n, err := normalizeExclude(p, roots)
		if err != nil {
			return nil, err
		}
		if err := gitignore.Validate(n); err != nil {
			return nil, &Error{Err: err, Flag: "--exclude"}
		}
		out = append(out, n)
	}
	return out, nil
}

// normalizeExclude normalizes one pattern (see normalizeExcludes).
func normalizeExclude(p string, roots []string) (string, error) {
	neg, body := "", p
	if strings.HasPrefix(body, "!") {
		neg, body = "!", body[1:]
	}
	if windowsPath(body) {
		return "", Invalid("gc-cfg-exclude-backslash", q(p), q(neg+strings.ReplaceAll(body, `\`, "/")))
	}
	anchored := false
	for strings.HasPrefix(body, "./") {
		body, anchored = strings.TrimLeft(body[2:], "/"), true
	}
	if body == "." || (anchored && body == "") {
		return "", Invalid("gc-cfg-exclude-root", q(p))
	}
	if strings.HasPrefix(body, "/") && !anchored {
		rel, inside, outside := absoluteInRoot(body, roots)
		switch {
		case inside && rel == "":
			return "", Invalid("gc-cfg-exclude-root", q(p))
		case inside:
			body, anchored = rel, true
		case outside:
			return "", Invalid("gc-cfg-exclude-outside", q(p))
		}
	}
	if climbs(body) {
		return "", Invalid("gc-cfg-exclude-dotdot", q(p))
	}
	if anchored {
		body = "/" + body
	}
	return neg + body, nil
}

// absoluteInRoot reads a pattern starting with "/": inside when it
// names a path in the root by its absolute name (rel is then the
// root-relative rest); outside when its first component names nothing
// in the root but exists in the file system's root (an absolute path
// elsewhere, like /home/...); neither for gitignore's own anchored
// pattern ("/artifacts/keep/**").
func absoluteInRoot(body string, roots []string) (rel string, inside, outside bool) {
	for _, r := range roots {
		if r == "/" {
			return strings.TrimLeft(body, "/"), true, false
		}
		if body == r || body == r+"/" {
			return "", true, false
		}
		if rest, ok := strings.CutPrefix(body, r+"/"); ok {
			return strings.TrimLeft(rest, "/"), true, false
		}
	}
	first, _, _ := strings.Cut(strings.TrimLeft(body, "/"), "/")
	if first == "" || strings.ContainsAny(first, `*?[\`) || len(roots) == 0 {
		return "", false, false
	}
	if _, err := os.Lstat(filepath.Join(roots[0], first)); err == nil {
		return "", false, false
	}
	_, err := os.Lstat("/" + first)
	return "", false, err == nil
}

// windowsPath reports a pattern written with backslashes as separators:
// a backslash before a letter, digit, '.', '_' or '-', which gitignore
// would read as that character escaped, never as a separator.
func windowsPath(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		c := s[i+1]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
			return true
		}
		i++
	}
	return strings.HasPrefix(s, `\\`) || len(s) > 2 && s[1] == ':' && s[2] == '\\'
}

// climbs reports a pattern with a ".." component: no root-relative path
// has one, so it would match nothing.
func climbs(s string) bool {
	for c := range strings.SplitSeq(strings.TrimLeft(s, "/"), "/") {
		if c == ".." {
			return true
		}
	}
	return false
}
