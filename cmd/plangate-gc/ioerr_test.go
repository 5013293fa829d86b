package main

import (
	"github.com/plangate-gc/plangate-gc/render"

	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

// TestReadFailureExitsOne runs the command on a stdin that fails with EIO
// in the middle of the third document: exit 1 (SPEC A12), stdout holds
// exactly the outputs of the two documents completed before the failure,
// and stderr names the failure, not a gate verdict.
func TestReadFailureExitsOne(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "seed-good-100-entries-7-aged", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc = bytes.TrimSpace(doc)
	for _, args := range [][]string{nil, {"--json"}} {
		t.Run(strings.Join(append([]string{"args"}, args...), " "), func(t *testing.T) {
			var one bytes.Buffer
			if code := exitCode(run(context.Background(), bytes.NewReader(doc), &one, io.Discard, args), io.Discard, render.English); code != 0 || one.Len() == 0 {
				t.Fatalf("the intact document: exit %d, %d bytes of output", code, one.Len())
			}
			stream := string(doc) + "\n" + string(doc) + "\n" + string(doc[:len(doc)/2])
			stdin := io.MultiReader(strings.NewReader(stream), iotest.ErrReader(syscall.EIO))
			var stdout, stderr bytes.Buffer
			code := exitCode(run(context.Background(), stdin, &stdout, &stderr, args), &stderr, render.English)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if want := one.String() + one.String(); stdout.String() != want {
				t.Errorf("stdout:\n%s\nwant the two completed documents' output only:\n%s", stdout.String(), want)
			}
			if msg := stderr.String(); !strings.Contains(msg, "input/output error") || strings.Contains(msg, "NO_REVIEW") {
				t.Errorf("stderr %q: want the I/O failure and no gate verdict", msg)
			}
		})
	}
}
