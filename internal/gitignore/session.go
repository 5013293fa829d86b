package gitignore

// Session matches many paths against one Matcher and remembers, for every
// directory it has evaluated, whether it or one of its parents is excluded. Paths of one tree share most
// of their parents, and git's rule checks each parent directory against
// every pattern, so a million paths in a few directories cost a million
// file checks, not millions of directory checks. The Matcher stays
// immutable; a Session is for one goroutine.
type Session struct {
	m    *Matcher
	dirs map[string]bool
}

// maxCachedDirs bounds a Session's memory: when it holds this many
// directory verdicts it forgets them all and starts again.
const maxCachedDirs = 4096

// Session starts a Session on m.
func (m *Matcher) Session() *Session {
	return &Session{m: m, dirs: make(map[string]bool)}
}

// Match is Matcher.Match with the directory verdicts remembered.
func (s *Session) Match(path string) bool { return s.m.match(path, s.dirs) }
