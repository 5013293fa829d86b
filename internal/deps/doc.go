// Package deps holds the project's dependency policy as a test (in the
// manner of go/build/deps_test.go): which project packages each package
// may import, and which packages must stay free of I/O and the clock. It
// has no code of its own.
package deps
