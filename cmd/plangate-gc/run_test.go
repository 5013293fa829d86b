package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestStdinHint: a terminal on stdin without --input gets a one-line hint
// on stderr before the reading starts; a pipe does not.
func TestStdinHint(t *testing.T) {
	old := isTerminal
	defer func() { isTerminal = old }()
	doc := `{"inventory":{"scope":"tmp","paths":[{"path":".river/tmp/a","sizeBytes":1,"mtimeEpoch":1}]},"retention":{"days":90,"maxEntries":1000,"maxSizeMb":500},"now":1764374400}`
	for _, terminal := range []bool{true, false} {
		isTerminal = func(io.Reader) bool { return terminal }
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), strings.NewReader(doc), &stdout, &stderr, nil); err != nil {
			t.Fatal(err)
		}
		if got := stderr.String() == stdinHint; got != terminal {
			t.Errorf("terminal=%v: stderr %q", terminal, stderr.String())
		}
		if !strings.HasPrefix(stdout.String(), "(summary):1: scope tmp") {
			t.Errorf("terminal=%v: stdout %q", terminal, stdout.String())
		}
	}
	if strings.Count(stdinHint, "\n") != 1 || !strings.HasSuffix(stdinHint, "\n") {
		t.Errorf("hint is not one line: %q", stdinHint)
	}
}
