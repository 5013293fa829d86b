package deps

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testPackage is what the -update check learns from one folder's test
// files: whether they define the flag, read it, and compare with goldens.
type testPackage struct {
	flag    string          // the variable a package-level flag.Bool("update", …) is assigned to
	where   string          // file:line of that definition
	starred map[string]bool // every *name in the files
	golden  bool            // a golden comparison: testscript.Run, a Golden call, an Update or UpdateScripts field
}

// updateFlagProblems lists the test folders below root whose -update flag
// does not match their goldens: defined but never read (a stub), or a
// golden comparison without the flag read. Folders holding a go.mod of
// their own are other modules, testdata is data.
func updateFlagProblems(root string) ([]string, error) {
	pkgs := map[string]*testPackage{}
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
		case d.IsDir() || !strings.HasSuffix(p, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := pkgs[dir]
		if pkg == nil {
			pkg = &testPackage{starred: map[string]bool{}}
			pkgs[dir] = pkg
		}
		scanUpdateFlag(fset, f, root, pkg)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var problems []string
	for dir, pkg := range pkgs {
		reads := pkg.flag != "" && pkg.flag != "_" && pkg.starred[pkg.flag]
		switch {
		case pkg.where != "" && !reads:
			problems = append(problems, pkg.where+": "+dir+" defines -update but never reads it (it has no goldens: delete the flag)")
		case pkg.golden && !reads:
			problems = append(problems, dir+" compares with goldens but reads no -update flag (define one beside the goldens and pass it on)")
		}
	}
	slices.Sort(problems)
	return problems, nil
}

// scanUpdateFlag records into pkg what file f does with -update.
func scanUpdateFlag(fset *token.FileSet, f *ast.File, root string, pkg *testPackage) {
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				if isUpdateFlag(v) && i < len(vs.Names) {
					pos := fset.Position(vs.Pos())
					rel, _ := filepath.Rel(root, pos.Filename)
					pkg.flag, pkg.where = vs.Names[i].Name, rel+":"+strconv.Itoa(pos.Line)
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.StarExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				pkg.starred[id.Name] = true
			}
		case *ast.CallExpr:
			switch fn := n.Fun.(type) {
			case *ast.SelectorExpr:
				if fn.Sel.Name == "Golden" || fn.Sel.Name == "Run" && isIdent(fn.X, "testscript") {
					pkg.golden = true
				}
			case *ast.Ident:
				if fn.Name == "Golden" {
					pkg.golden = true
				}
			}
		case *ast.KeyValueExpr:
			if isIdent(n.Key, "Update") || isIdent(n.Key, "UpdateScripts") {
				pkg.golden = true
			}
		}
		return true
	})
}

// isUpdateFlag reports flag.Bool("update", …).
func isUpdateFlag(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !isIdent(sel.X, "flag") || sel.Sel.Name != "Bool" {
		return false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	return ok && lit.Value == `"update"`
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// TestUpdateFlagOnlyWhereGoldensAre: -update lives in the packages with
// goldens and nowhere else (decision 380). `go test ./cmd/... ./internal/eval
// ./internal/deps -update` rewrites every golden; a package that defines
// the flag without reading it is a stub, and a golden comparison without
// it cannot be rewritten.
func TestUpdateFlagOnlyWhereGoldensAre(t *testing.T) {
	problems, err := updateFlagProblems("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestUpdateFlagProblemsAreFound proves the check can fail: a stub flag
// and a golden compared without the flag are found; a package that
// defines and reads it, and one with neither, are not.
func TestUpdateFlagProblemsAreFound(t *testing.T) {
	root := t.TempDir()
	write := func(dir, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, dir, "x_test.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("stub", "package stub\n\nimport \"flag\"\n\nvar _ = flag.Bool(\"update\", false, \"accepted\")\n")
	write("unread", "package unread\n\nimport \"flag\"\n\nvar update = flag.Bool(\"update\", false, \"\")\n")
	write("unflagged", "package unflagged\n\nfunc TestX(t *testing.T) { doccheck.Golden(t, \"a\", \"b\", false) }\n")
	write("good", "package good\n\nimport \"flag\"\n\nvar update = flag.Bool(\"update\", false, \"\")\n\n"+
		"func TestX(t *testing.T) { testscript.Run(t, testscript.Params{UpdateScripts: *update}) }\n")
	write("plain", "package plain\n\nfunc TestX(t *testing.T) {}\n")
	problems, err := updateFlagProblems(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"stub/x_test.go:5: stub defines -update but never reads it (it has no goldens: delete the flag)",
		"unflagged compares with goldens but reads no -update flag (define one beside the goldens and pass it on)",
		"unread/x_test.go:5: unread defines -update but never reads it (it has no goldens: delete the flag)",
	}
	if !slices.Equal(problems, want) {
		t.Errorf("updateFlagProblems =\n%q\nwant\n%q", problems, want)
	}
}
