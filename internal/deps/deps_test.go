package deps

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const mod = "github.com/plangate-gc/plangate-gc/"

// allowed lists, for every package of the module, the module packages it
// may import directly. Data flows one way: bytes → gate → skill → render
// (pipeline joins them for plangate-gc); scan → skill → sweep (gc joins
// them for river gc, report words the outcome). A package missing from
// this table fails the test: adding one is a decision, written down here.
var allowed = map[string][]string{
	"jsonnum":   {},
	"gitignore": {},
	"schemas":   {},
	"skill":     {"gitignore", "jsonnum"},
	"gate":      {"gitignore", "internal/jsonesc", "jsonnum", "schemas", "skill"},
	"render":    {"internal/jsonesc", "skill"},
	"pipeline":  {"gate", "render", "skill"},
	"eval":      {"gitignore", "pipeline", "render", "skill"},
	"scan":      {"internal/eintr", "internal/fserr", "internal/rfc3339", "skill"},
	"sweep":     {"internal/eintr", "internal/fserr"},
	"gitindex":  {"internal/eintr", "internal/fserr"},
	"gc":        {"gitignore", "internal/eintr", "internal/fserr", "scan", "skill", "sweep"},
	"report":    {"gc", "internal/fserr", "render", "scan", "skill"},

	"cmd/plangate-gc": {"eval", "internal/cliparse", "internal/version", "pipeline", "render", "schemas"},
	"cmd/river-gc": {"gate", "gc", "gitignore", "gitindex", "internal/cliparse", "internal/progress", "internal/rfc3339",
		"internal/version", "jsonnum", "render", "report", "scan", "skill"},

	"internal/eintr":     {},
	"internal/jsonesc":   {},
	"internal/fserr":     {},
	"internal/rfc3339":   {},
	"internal/cliparse":  {},
	"internal/version":   {},
	"internal/progress":  {},
	"internal/golden":    {},
	"internal/synth":     {},
	"internal/testtree":  {},
	"internal/asnobody":  {},
	"internal/contracts": {},
	"internal/deps":      {},

	"bench/baseline":            {},
	"bench/gen":                 {"internal/synth"},
	"bench/ratio":               {"bench/internal/measure", "internal/synth"},
	"bench/gctree":              {},
	"bench/rivergc":             {"bench/internal/measure"},
	"bench/internal/measure":    {},
	"bench/hostileprof":         {"gc", "internal/cliparse", "jsonnum", "skill"},
	"examples":                  {},
	"integrations/river-review": {},
}

// pure packages decide or word things; they must not touch the file
// system, the clock, the network or randomness (STYLE rule 2). render may
// format times it is given, so "time" is allowed there.
var pure = map[string][]string{
	"skill":     {"os", "time", "net", "math/rand", "math/rand/v2", "syscall", "golang.org/x/sys/unix"},
	"jsonnum":   {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
	"gitignore": {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
	"gate":      {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
	"render":    {"os", "net", "math/rand", "math/rand/v2", "syscall", "time/tzdata"},
}

// violations returns the imports of pkg that the policy forbids.
func violations(pkg string, imports []string) []string {
	var bad []string
	ok, known := allowed[pkg]
	if !known {
		return []string{"(package missing from the allowed table)"}
	}
	for _, imp := range imports {
		if rel, isMod := strings.CutPrefix(imp, mod); isMod {
			if !slices.Contains(ok, rel) {
				bad = append(bad, rel)
			}
		} else if slices.Contains(pure[pkg], imp) {
			bad = append(bad, imp)
		}
	}
	return bad
}

func TestAllowedImports(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		if bad := violations(pkg, fields[1:]); len(bad) > 0 {
			t.Errorf("%s imports %v, which internal/deps/deps_test.go does not allow", pkg, bad)
		}
	}
}

// TestPolicyCatchesForbiddenImports proves the checker can fail.
func TestPolicyCatchesForbiddenImports(t *testing.T) {
	for _, tc := range []struct {
		pkg     string
		imports []string
		want    []string
	}{
		{"render", []string{"fmt", mod + "skill", mod + "gc"}, []string{"gc"}},
		{"render", []string{mod + "gate"}, []string{"gate"}},
		{"skill", []string{"os", mod + "jsonnum"}, []string{"os"}},
		{"sweep", []string{mod + "scan"}, []string{"scan"}},
		{"newpkg", nil, []string{"(package missing from the allowed table)"}},
		{"gc", []string{mod + "scan", mod + "sweep", "os"}, nil},
	} {
		if got := violations(tc.pkg, tc.imports); !slices.Equal(got, tc.want) {
			t.Errorf("violations(%s, %v) = %v, want %v", tc.pkg, tc.imports, got, tc.want)
		}
	}
}
