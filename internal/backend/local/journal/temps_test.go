//go:build linux

package journal

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTempsRemovedOnlyWhenStillOurs (decision 223): of three journaled
// rewrite copies, the one still exactly the journaled file is listed and
// removed; one whose name now holds another file (a user's, same name)
// and one gone are neither listed nor touched.
func TestTempsRemovedOnlyWhenStillOurs(t *testing.T) {
	root, fd := tree(t, ".river/memory")
	ours := intentOf(t, root, ".river/memory/.river-gc-rewrite.index.json.1.1")
	theirs := intentOf(t, root, ".river/memory/.river-gc-rewrite.index.json.1.2")
	gone := intentOf(t, root, ".river/memory/.river-gc-rewrite.index.json.1.3")
	for _, in := range []*Intent{&ours, &theirs, &gone} {
		in.Op = Temp
	}
	j, err := Open(fd)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Intend([]Intent{ours, theirs, gone}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	p := filepath.Join(root, theirs.Key)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("y"), 0o644); err != nil { // another inode, same name and size
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, gone.Key)); err != nil {
		t.Fatal(err)
	}
	found, err := recoverAt(fd, nil)
	if err != nil || found == nil {
		t.Fatalf("Recover = %+v, %v", found, err)
	}
	if r := found; len(r.Temps) != 1 || r.Temps[0].Key != ours.Key || len(r.Removed)+len(r.Rewritten) != 0 {
		t.Fatalf("Recover = %+v", r)
	}
	removed, err := RemoveTemps(fd, found.Temps)
	if err != nil || !slices.Equal(removed, []string{ours.Key}) {
		t.Fatalf("RemoveTemps = %v, %v", removed, err)
	}
	if _, err := os.Lstat(filepath.Join(root, ours.Key)); !os.IsNotExist(err) {
		t.Errorf("our copy is still there: %v", err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "y" {
		t.Errorf("the other file: %q, %v", b, err)
	}
}
