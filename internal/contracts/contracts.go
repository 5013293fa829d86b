// Package contracts locates and compiles, for tests, the River Review
// contracts kept beside the repository in ../shared/contracts/river-reviewer
// (MIT, upstream commit c36106a9). They are never copied into the
// repository: tests that need them skip, saying so, when they are absent.
package contracts

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// EnvDir names an environment variable that overrides the contracts
// directory (for a checkout not beside ../shared, e.g. a git worktree).
const EnvDir = "RIVER_REVIEWER_CONTRACTS"

// Dir returns the upstream contracts directory — $RIVER_REVIEWER_CONTRACTS
// when set, else <repo>/../shared/contracts/river-reviewer — or skips t
// when it is absent.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(EnvDir)
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..")
		dir = filepath.Join(root, "..", "shared", "contracts", "river-reviewer")
	}
	if st, err := os.Stat(filepath.Join(dir, "schemas")); err != nil || !st.IsDir() {
		t.Skipf("River Review contracts not found at %s (set %s): upstream schema checks skipped", dir, EnvDir)
	}
	return dir
}

// Schema compiles the upstream schema file name (e.g.
// "output.schema.json"), asserting formats such as date-time; it skips t
// when the contracts are absent. Each schema is compiled once per test
// process (compiling took most of render's test time).
func Schema(t testing.TB, name string) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(Dir(t), "schemas", name)
	if s, ok := compiled.Load(path); ok {
		return s.(*jsonschema.Schema)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	s := Compile(t, "urn:river-reviewer:"+name, data)
	compiled.Store(path, s)
	return s
}

// compiled holds the schemas Schema compiled, by path; a compiled schema
// is safe for concurrent use.
var compiled sync.Map

// Compile compiles a draft 2020-12 schema registered under id, asserting
// formats.
func Compile(t testing.TB, id string, data []byte) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	if err := c.AddResource(id, bytes.NewReader(data)); err != nil {
		t.Fatalf("adding schema %s: %v", id, err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatalf("compiling schema %s: %v", id, err)
	}
	return s
}
