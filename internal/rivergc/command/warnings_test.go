//go:build linux

package command

import "testing"

// TestAnnotationData escapes as GitHub's runner unescapes a workflow
// command's message.
func TestAnnotationData(t *testing.T) {
	if got, want := annotationData("50% done\r\nnext %0A"), "50%25 done%0D%0Anext %250A"; got != want {
		t.Errorf("annotationData = %q, want %q", got, want)
	}
}
