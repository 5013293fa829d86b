package deps

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the module's production code
// may be, from its func line to its closing brace (SPEC I4).
const maxFuncLines = 100

// longFuncs lists the functions of the non-test Go files below root that
// run longer than limit lines, as "file:line: name (n lines)". Folders
// holding a go.mod of their own are other modules, testdata is data.
func longFuncs(root string, limit int) ([]string, error) {
	var long []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != root && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case d.IsDir() && p != root:
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > limit {
				rel, _ := filepath.Rel(root, p)
				long = append(long, rel+":"+strconv.Itoa(start.Line)+": "+funcName(fn)+" ("+strconv.Itoa(n)+" lines)")
			}
		}
		return nil
	})
	return long, err
}

// funcName is a function's name as a reader looks it up: (*T).M, T.M or F.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		t, star = s.X, "*"
	}
	if g, ok := t.(*ast.IndexExpr); ok { // a generic receiver: T[E]
		t = g.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	if star != "" {
		return "(*" + name + ")." + fn.Name.Name
	}
	return name + "." + fn.Name.Name
}

// TestNoLongFunctions: no function of the module's production code runs
// past maxFuncLines lines; a longer one is split where its steps are.
func TestNoLongFunctions(t *testing.T) {
	long, err := longFuncs("../..", maxFuncLines)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range long {
		t.Errorf("%s: longer than %d lines", l, maxFuncLines)
	}
}

// TestLongFunctionsAreFound proves the measure can fail: a 102-line
// function is found, with its receiver named; a 100-line one is not.
func TestLongFunctionsAreFound(t *testing.T) {
	dir := t.TempDir()
	body := func(name string, lines int) string { // lines counts the func line and the closing brace
		return "func " + name + " {\n" + strings.Repeat("\t_ = 0\n", lines-2) + "}\n"
	}
	src := "package p\n\ntype T struct{}\n\n" + body("(t *T) Long()", 102) + body("Fits()", 100)
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\n"+body("TestLong()", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	long, err := longFuncs(dir, maxFuncLines)
	if err != nil {
		t.Fatal(err)
	}
	if want := "p.go:5: (*T).Long (102 lines)"; len(long) != 1 || long[0] != want {
		t.Errorf("longFuncs = %q, want [%q]", long, want)
	}
}
