//go:build linux

package gc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
	"github.com/plangate-gc/plangate-gc/internal/testtree"
	"github.com/plangate-gc/plangate-gc/skill"
)

var (
	old = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	now = time.Date(2025, 11, 29, 0, 0, 0, 0, time.UTC)
)

// config returns a force run over every scope with seed 000's defaults.
func config(t *testing.T, root string, explicit bool) Config {
	t.Helper()
	r, err := OpenRoot(root, explicit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	num := func(s string) jsonnum.Number {
		n, ok := jsonnum.Parse(s)
		if !ok {
			t.Fatalf("bad number %q", s)
		}
		return n
	}
	return Config{Root: r, Scopes: skill.Scopes(), Mode: Force, Now: now.Unix(), Metadata: true,
		Retention: skill.Retention{Days: num("90"), MaxEntries: num("1000"), MaxSizeMb: num("500")}}
}

// files lists the regular files below dir, root-relative and sorted.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestRootFlip: a symlinked --root is followed once. Re-pointing it during
// the run at a hard-linked copy (same inodes, so identity checks alone
// cannot tell) sends nothing there: deletions happen in the tree that was
// locked and scanned.
func TestRootFlip(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, rel := range []string{".river/tmp/old-1", ".river/tmp/old-2", ".river/memory/m.json"} {
		testtree.Write(t, a, rel, "x", old)
	}
	if out, err := exec.Command("cp", "-al", a, b).CombinedOutput(); err != nil {
		t.Skipf("cp -al: %v %s", err, out)
	}
	link := filepath.Join(base, "root")
	if err := os.Symlink("a", link); err != nil {
		t.Fatal(err)
	}
	cfg := config(t, link, true)
	cfg.Scanned = func(int) { // after each scope: flip the root
		os.Remove(link)
		if err := os.Symlink("b", link); err != nil {
			t.Error(err)
		}
	}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if removed := slices.Collect(out.Removed()); len(removed) != 3 || len(out.Errors) != 0 {
		t.Fatalf("removed %v, errors %v", removed, out.Errors)
	}
	if got := files(t, a); len(got) != 0 {
		t.Errorf("the scanned tree still holds %q", got)
	}
	if got := files(t, b); len(got) != 3 {
		t.Errorf("the flipped-to tree lost files: %q", got)
	}
}

// TestBindMountNotDeleted: a bind mount of another directory inside
// .river/tmp/ (same device) is never entered, so --force deletes nothing
// behind it.
func TestBindMountNotDeleted(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "repo"), filepath.Join(base, "outside")
	testtree.Write(t, root, ".river/tmp/own", "x", old)
	testtree.Write(t, outside, "precious", "x", old)
	if err := os.MkdirAll(filepath.Join(root, ".river/tmp/mnt"), 0o755); err != nil {
		t.Fatal(err)
	}
	testtree.InPrivateMountNS(t, func() error {
		if err := testtree.BindMount(outside, filepath.Join(root, ".river/tmp/mnt")); err != nil {
			return &testtree.SkipError{Err: err}
		}
		out, err := Run(context.Background(), config(t, root, true))
		if err != nil {
			return err
		}
		if removed := slices.Collect(out.Removed()); len(removed) != 1 || removed[0].Path != ".river/tmp/own" {
			t.Errorf("removed %v", removed)
		}
		return nil
	})
	if got := files(t, outside); !slices.Equal(got, []string{"precious"}) {
		t.Errorf("behind the bind mount: %q", got)
	}
}

// TestLeftoversOfAKilledRun: a run killed between the rename and the
// unlink leaves a file under its private name. A dry-run leaves it and
// warns; the next --force run puts it back under its own name and judges
// it like any other file (an old one is then deleted, a fresh one kept).
func TestLeftoversOfAKilledRun(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, ".river/tmp/.river-gc-deleting.old", "x", old)
	testtree.Write(t, root, ".river/memory/.river-gc-deleting.fresh.json", "{}", now)
	testtree.Write(t, root, ".river/memory/index.json", "{}", now)

	cfg := config(t, root, true)
	cfg.Mode = DryRun
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Warnings) != 1 || out.Warnings[0].Kind != WarnLeftover || out.Warnings[0].N != 2 {
		t.Errorf("dry-run warnings %+v", out.Warnings)
	}
	before := files(t, root)

	cfg.Mode = Force
	out, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := files(t, root); !slices.Equal(got, []string{".river/memory/fresh.json", ".river/memory/index.json"}) {
		t.Errorf("after --force: %q (before: %q)", got, before)
	}
	if removed := slices.Collect(out.Removed()); len(removed) != 1 || removed[0].Path != ".river/tmp/old" {
		t.Errorf("removed %+v", removed)
	}
	i := slices.IndexFunc(out.Warnings, func(w Warning) bool { return w.Kind == WarnRestored })
	if i < 0 || out.Warnings[i].N != 2 {
		t.Errorf("force warnings %+v", out.Warnings)
	}
}
