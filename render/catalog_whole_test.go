package render_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/plangate-gc/plangate-gc/internal/rivergc/catalog" // river gc's words
	"github.com/plangate-gc/plangate-gc/render"
)

// formatArgs is how many arguments format consumes: its verbs in order,
// or the highest explicit index ("%[2]s"); a '*' width or precision takes
// one too. "%%" takes none.
func formatArgs(format string) int {
	n, highest := 0, 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		for i++; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '%' && format[i-1] == '%':
			case strings.IndexByte("+-# 0.123456789", c) >= 0:
				continue
			case c == '*':
				n++
				continue
			case c == '[':
				end := strings.IndexByte(format[i:], ']')
				k, _ := strconv.Atoi(format[i+1 : i+end])
				highest, n, i = max(highest, k), k-1, i+end // the verb takes argument k
				continue
			default:
				n++
				highest = max(highest, n)
			}
			break
		}
	}
	return max(n, highest)
}

// TestEveryMessageIsWhole (SPEC B6): every message of the catalog, found
// in the catalog itself, takes as many arguments in Japanese as in
// English (callers pass one list for both), and rendered with that many
// sample arguments holds no "%!" and shows each of them.
func TestEveryMessageIsWhole(t *testing.T) {
	cat := render.All()
	if len(cat) < 100 {
		t.Fatalf("the catalog has %d messages: not the whole catalog", len(cat))
	}
	for key, texts := range cat {
		ja, en := formatArgs(texts[0]), formatArgs(texts[1])
		if ja != en {
			t.Errorf("%s takes %d arguments in Japanese, %d in English", key, ja, en)
			continue
		}
		args := make([]any, ja)
		for i := range args {
			args[i] = "‹arg" + strconv.Itoa(i+1) + "›"
		}
		for _, lang := range []render.Lang{render.Japanese, render.English} {
			s := render.Message(lang, key, args...)
			if strings.Contains(s, "%!") {
				t.Errorf("%s (%s) with %d arguments: %q", key, lang, ja, s)
			}
			for _, a := range args {
				if !strings.Contains(s, a.(string)) {
					t.Errorf("%s (%s) drops %s: %q", key, lang, a, s)
				}
			}
		}
	}
}

// TestFormatArgs pins the verb counting the test above relies on.
func TestFormatArgs(t *testing.T) {
	for format, want := range map[string]int{
		"": 0, "100%%": 0, "%s": 1, "%s %s": 2, "%[1]s and %[1]s": 1, "%[2]s %[1]s": 2, "%5.2f%%": 1, "%*d": 2, "%%s": 0, "a %-8s|": 1,
	} {
		if got := formatArgs(format); got != want {
			t.Errorf("formatArgs(%q) = %d, want %d", format, got, want)
		}
	}
}

// wording names the functions that word a catalog message, with the
// index of the key among their arguments (the message's arguments follow
// it): render.Message, render's msg, report's printer.Sprintf, river gc's
// config.Invalid.
var wording = map[string]int{"Message": 1, "msg": 1, "Sprintf": 0, "Invalid": 0}

// TestEveryCallPassesTheMessagesArguments (SPEC B6): every call in the
// module's code that words a catalog message (render.Message, msg, a
// printer's Sprintf, config.Invalid, a cliparse hint) with a key written out
// passes exactly the arguments
// the message takes; a key built as "prefix"+kind passes what some
// message of that family takes (the family's own tests word every kind).
// `--exclude '#x'` ended in "%!(EXTRA string=0)" this way.
func TestEveryCallPassesTheMessagesArguments(t *testing.T) {
	cat := render.All()
	consts := map[string]string{}
	type call struct {
		pos  token.Position
		key  string // the key, or the family's prefix
		fam  bool
		args int
	}
	var calls []call
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	str := func(e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind == token.STRING {
				s, err := strconv.Unquote(e.Value)
				return s, err == nil
			}
		case *ast.Ident:
			s, ok := consts[e.Name]
			return s, ok
		}
		return "", false
	}
	for _, f := range files { // string constants first: keys are often named
		ast.Inspect(f, func(n ast.Node) bool {
			if v, ok := n.(*ast.ValueSpec); ok && len(v.Names) == len(v.Values) {
				for i, name := range v.Names {
					if s, ok := str(v.Values[i]); ok {
						consts[name.Name] = s
					}
				}
			}
			return true
		})
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok { // cliparse's &Error{HintKind: k, HintArgs: []string{…}}
				var k call
				for _, e := range lit.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					id, _ := kv.Key.(*ast.Ident)
					switch {
					case id == nil:
					case id.Name == "HintKind":
						if s, ok := str(kv.Value); ok {
							k.key, k.pos = "gc-cfg-hint-"+s, fset.Position(kv.Pos())
						}
					case id.Name == "HintArgs":
						if l, ok := kv.Value.(*ast.CompositeLit); ok {
							k.args = len(l.Elts)
						}
					}
				}
				if _, ok := cat[k.key]; ok {
					calls = append(calls, k)
				}
			}
			c, ok := n.(*ast.CallExpr)
			if !ok || c.Ellipsis.IsValid() {
				return true
			}
			var name string
			switch fn := c.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			at, ok := wording[name]
			if !ok || len(c.Args) <= at {
				return true
			}
			k := call{pos: fset.Position(c.Pos()), args: len(c.Args) - at - 1}
			if s, ok := str(c.Args[at]); ok {
				k.key = s
			} else if b, ok := c.Args[at].(*ast.BinaryExpr); ok && b.Op == token.ADD {
				k.key, k.fam = func() (string, bool) { s, ok := str(b.X); return s, ok }()
				if !k.fam {
					return true
				}
			} else {
				return true
			}
			for key := range cat {
				if key == k.key || k.fam && strings.HasPrefix(key, k.key) {
					calls = append(calls, k)
					break
				}
			}
			return true
		})
	}
	if len(calls) < 100 {
		t.Fatalf("found %d calls of catalog messages: the search is broken", len(calls))
	}
	for _, c := range calls {
		var takes []int
		for key, texts := range cat {
			if key == c.key || c.fam && strings.HasPrefix(key, c.key) {
				takes = append(takes, formatArgs(texts[1]))
			}
		}
		if !slices.Contains(takes, c.args) {
			t.Errorf("%s: %s%s is given %d arguments, takes %v", c.pos, c.key, map[bool]string{true: "…"}[c.fam], c.args, takes)
		}
	}
}
