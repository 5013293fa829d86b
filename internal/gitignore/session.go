package gitignore

// Session matches many paths against one Matcher and remembers the verdict
// for every parent directory it has evaluated. Paths of one tree share most
// of their parents, and git's rule checks each parent directory against
// every pattern, so a million paths in a few directories cost a million
// file checks, not millions of directory checks. The Matcher stays
// immutable; a Session is for one goroutine.
type Session struct {
	m    *Matcher
	dirs map[string]bool
}

// maxCachedDir bounds the directory prefixes a Session remembers: hashing a
// prefix costs its length, and longer prefixes only occur in hostile input.
const maxCachedDir = 4096

// Session starts a Session on m.
func (m *Matcher) Session() *Session {
	return &Session{m: m, dirs: map[string]bool{}}
}

// Match is Matcher.Match with the directory verdicts remembered.
func (s *Session) Match(path string) bool { return s.m.match(path, s.dirs) }

// match checks each parent directory, shortest first, as a directory (an
// excluded parent excludes the path; git cannot re-include below it), then
// the path itself as a file. dirs, when not nil, remembers directory
// verdicts.
func (m *Matcher) match(path string, dirs map[string]bool) bool {
	if m == nil || len(m.rules) == 0 {
		return false
	}
	start, depth := 0, 0
	for i := 0; i < len(path); i++ {
		if path[i] != '/' {
			continue
		}
		dir := path[:i]
		cache := dirs != nil && i <= maxCachedDir
		excluded, known := false, false
		if cache {
			excluded, known = dirs[dir]
		}
		if !known {
			excluded = m.excluded(dir, path[start:i], depth, true)
			if cache {
				dirs[dir] = excluded
			}
		}
		if excluded {
			return true
		}
		start, depth = i+1, depth+1
	}
	return m.excluded(path, path[start:], depth, false)
}
