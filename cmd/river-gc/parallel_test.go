//go:build linux

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTestsRunInParallel (decision 381): every top-level test of this
// package calls t.Parallel() first, or opens with a comment saying why it
// cannot ("// Not parallel: it sets the environment"). go test runs every
// sequential test before any parallel one, one after another, and these
// tests mostly wait (on strace stops, timeouts, child processes).
func TestTestsRunInParallel(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, test := range sequentialTests(fset, f) {
			t.Errorf("%s: %s neither calls t.Parallel() first nor says why not (// Not parallel: ...)", name, test)
		}
	}
	// The check can fail: a test without either is named.
	src := "package p\nfunc TestA(t *testing.T) {\n\tt.Parallel()\n}\n" +
		"func TestB(t *testing.T) {\n\t// Not parallel: it sets the environment.\n\tt.Setenv(\"A\", \"1\")\n}\n" +
		"func TestC(t *testing.T) {\n\tt.Setenv(\"A\", \"1\")\n\tt.Parallel()\n}\n"
	f, err := parser.ParseFile(fset, "p_test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if got := sequentialTests(fset, f); !slices.Equal(got, []string{"TestC"}) {
		t.Errorf("on a sample, the sequential tests are %q, want [TestC]", got)
	}
}

// sequentialTests lists the top-level tests of f whose first statement is
// not t.Parallel() and that do not open with a "Not parallel:" comment.
func sequentialTests(fset *token.FileSet, f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !strings.HasPrefix(fd.Name.Name, "Test") || fd.Name.Name == "TestMain" {
			continue
		}
		if len(fd.Body.List) > 0 && isParallelCall(fd.Body.List[0]) {
			continue
		}
		end := fd.Body.Rbrace
		if len(fd.Body.List) > 0 {
			end = fd.Body.List[0].Pos()
		}
		said := slices.ContainsFunc(f.Comments, func(c *ast.CommentGroup) bool {
			return c.Pos() > fd.Body.Lbrace && c.Pos() < end && strings.HasPrefix(c.Text(), "Not parallel: ")
		})
		if !said {
			out = append(out, fd.Name.Name)
		}
	}
	return out
}

// isParallelCall reports whether s is a call of a method Parallel.
func isParallelCall(s ast.Stmt) bool {
	e, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	c, ok := e.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Parallel"
}
