package deps

import (
	"github.com/plangate-gc/plangate-gc/internal/modfiles"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const mod = "github.com/plangate-gc/plangate-gc/"

// golist runs go list, after reading every file of the module so that
// go test reruns these tests whenever one changes (go list's reads are
// not go test's: internal/modfiles).
func golist(t *testing.T, args ...string) []byte {
	t.Helper()
	if err := modfiles.Record(); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return out
}

// allowed lists, for every package of the module, the module packages it
// may import directly. Data flows one way: bytes → gate → skill → render
// (pipeline joins them for plangate-gc); scan → skill → sweep (gc joins
// them for river gc, report words the outcome). A package missing from
// this table fails the test: adding one is a decision, written down here.
var allowed = map[string][]string{
	"internal/jsonnum":             {},
	"internal/gitignore":           {},
	"schemas":                      {},
	"skill":                        {"internal/gitignore", "internal/jsonnum", "internal/prefault"},
	"gate":                         {"internal/gitignore", "internal/jsonesc", "internal/jsonnum", "internal/prefault", "schemas", "skill"},
	"render":                       {"internal/jsonesc", "skill"},
	"internal/pipeline":            {"gate", "render", "skill"},
	"internal/eval":                {"internal/gitignore", "internal/pipeline", "render", "skill"},
	"internal/rivergc/scan":        {"internal/backend/local/ident", "internal/eintr", "internal/fserr", "internal/rfc3339", "skill"},
	"internal/backend/local/sweep": {"internal/backend/local/ident", "internal/eintr", "internal/fserr"},
	"internal/rivergc/gitindex":    {"internal/backend/local/ident", "internal/eintr", "internal/fserr"},
	"internal/rivergc/gc": {"internal/gitignore", "internal/eintr", "internal/fserr", "internal/backend/local/journal", "internal/rivergc/scan", "skill", "internal/backend/local/sweep", "internal/rivergc/stores", "internal/prefault", "internal/backend/local/rewrite", "internal/rfc3339",
		"internal/backend", "internal/backend/local", // a bucket root runs through the backend seam (SPEC Part H); a directory root's descriptor calls are the local backend's (SPEC I1)
		"internal/backend/record", // one record, one recovery and one lock rule for every root (SPEC I2)
		"internal/rivergc/plan"},  // a run writes or applies a reviewed plan (SPEC Part J)
	// A reviewed plan (SPEC Part J) is data and its encoding: strings
	// escaped as every record escapes them, the policy's numbers as given.
	"internal/rivergc/plan":          {"render", "internal/jsonesc", "internal/jsonnum", "internal/rfc3339", "skill"},
	"internal/backend/local/ident":   {"internal/eintr"},
	"internal/backend/local/journal": {"internal/backend/record", "internal/eintr", "internal/fserr"},
	"internal/rivergc/outfile":       {"internal/backend/local/ident", "internal/rivergc/gc", "internal/backend/local/journal", "skill"},
	// The stores' reading, entry index, liveness and splice (SPEC I4): an
	// entry is a scan record to the engine, judged by it for references.
	"internal/rivergc/stores":        {"internal/gitignore", "internal/prefault", "internal/rivergc/scan", "skill"},
	"internal/backend/local/rewrite": {"internal/backend/local/ident", "internal/eintr", "internal/fserr"},
	"internal/report":                {"internal/rivergc/gc", "internal/fserr", "render", "internal/rivergc/scan", "skill", "internal/rivergc/catalog"},
	// river gc's words, apart from the skill's renderer but registered
	// into its one catalog (SPEC I4).
	"internal/rivergc/catalog": {"render"},

	"cmd/plangate-gc": {"internal/clidoc", "internal/eval", "internal/cliparse", "internal/version", "internal/pipeline", "render", "schemas"},
	// The backend seam (SPEC Parts H, I): backend knows no implementation
	// (list, get, conditional put and delete; a store's lease lock and
	// journal on those four); s3 is the bucket, on the AWS SDK; local is
	// the directory root (opening, resolving beneath it, held run
	// directories) with the descriptor protocol below it (sweep deletes,
	// rewrite replaces, journal gives the record its primitives, ident
	// identifies); record is the record over the seam (the journal's
	// format, recovery, the lock rule: SPEC I2), each backend giving only
	// primitives; backendtest is the one suite both pass. Nothing here
	// imports internal/rivergc.
	"internal/backend":             {},
	"internal/backend/record":      {"internal/backend"},
	"internal/backend/s3":          {"internal/backend"},
	"internal/backend/backendtest": {"internal/backend", "internal/backend/record"},
	"internal/backend/local":       {"internal/backend", "internal/eintr", "internal/fserr", "internal/backend/local/rewrite", "internal/backend/local/sweep"},
	// river-gc's thin main: kong, run, one switch from errors to exit
	// codes. config validates the flags and opens the root (the one
	// root-kind branch outside the backends: only config imports the
	// bucket, SPEC I4); command runs the validated config and writes its
	// outputs; stop ends a --force run early but in order.
	"cmd/river-gc": {"internal/rivergc/catalog", // main_other.go, off Linux
		"internal/clidoc", "internal/cliparse", "internal/fserr", "internal/progress", "internal/report", "internal/rivergc/command",
		"internal/rivergc/config", "internal/rivergc/gc", "internal/rivergc/stop", "internal/version", "render"},
	"internal/rivergc/config": {"internal/backend", "internal/backend/s3", "internal/cliparse", "internal/gitignore", "internal/jsonnum", "internal/report",
		"internal/rfc3339", "internal/rivergc/gc", "internal/rivergc/gitindex", "internal/rivergc/outfile", "internal/rivergc/plan", "render", "skill"},
	"internal/rivergc/command": {"gate", "internal/progress", "internal/report", "internal/rivergc/config", "internal/rivergc/gc", "internal/rivergc/outfile",
		"internal/rivergc/plan", "internal/rivergc/scan", "internal/version", "render", "skill"},
	"internal/rivergc/stop": {},

	"internal/eintr":                {},
	"internal/jsonesc":              {},
	"internal/prefault":             {},
	"internal/fserr":                {},
	"internal/rfc3339":              {},
	"internal/cliparse":             {},
	"internal/clidoc":               {},
	"internal/clidoc/doccheck":      {"internal/clidoc"},
	"internal/pinned":               {"internal/testbin"},
	"internal/release":              {"internal/longtest", "internal/pinned"},
	"internal/version":              {},
	"internal/progress":             {},
	"internal/synth":                {},
	"internal/testtree":             {},
	"internal/asnobody":             {},
	"internal/contracts":            {},
	"internal/upstream":             {"internal/contracts"},
	"internal/npmtest":              {"internal/longtest", "internal/testbin"},
	"internal/modfiles":             {},
	"internal/testbin":              {"internal/longtest", "internal/modfiles"}, // the one shared build of the commands tests run
	"internal/longtest":             {},
	"internal/s3test":               {"internal/longtest"},
	"internal/backend/s3/faulttest": {},
	"internal/walk":                 {"internal/longtest"},
	"internal/deps":                 {},

	"bench/baseline":                {},
	"bench/gen":                     {"internal/synth"},
	"bench/ratio":                   {"bench/internal/measure", "internal/synth"},
	"bench/gctree":                  {},
	"bench/rivergc":                 {"bench/internal/measure"},
	"bench/stores":                  {"bench/internal/measure"},
	"bench/s3":                      {"bench/internal/measure", "internal/s3test"},
	"bench/internal/measure":        {},
	"bench/delfloor":                {},
	"bench/hostileprof":             {"internal/rivergc/gc", "internal/cliparse", "internal/jsonnum", "skill"},
	"integrations/workflow":         {},
	"integrations/action":           {"internal/longtest"},
	"integrations/river-review":     {},
	"integrations/npm":              {"internal/longtest", "internal/npmtest"},
	"integrations/river-review/cli": {"internal/longtest", "internal/npmtest", "internal/upstream"},
}

// pure packages decide or word things; they must not touch the file
// system, the clock, the network or randomness (STYLE rule 2): these may
// not be imported directly. render may format times it is given, so
// "time" is allowed there. What they reach transitively is pinned in
// testdata/pure-deps.txt (TestPureTransitiveImports).
var pure = map[string][]string{
	"skill":              {"os", "time", "net", "math/rand", "math/rand/v2", "syscall", "golang.org/x/sys/unix"},
	"internal/jsonnum":   {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
	"internal/gitignore": {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
	"internal/jsonesc":   {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
	"internal/prefault":  {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
	"gate":               {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
	"render":             {"os", "net", "math/rand", "math/rand/v2", "syscall", "time/tzdata"},
	"schemas":            {"os", "time", "net", "math/rand", "math/rand/v2", "syscall"},
}

// noSystemCalls are packages that make no system call of their own
// (SPEC I1): the run asks its root's backend, and the seam knows no
// implementation. Their descriptors and system calls live in
// internal/backend/local.
var noSystemCalls = map[string]bool{"internal/rivergc/gc": true, "internal/backend": true}

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
		} else if slices.Contains(pure[pkg], imp) || noSystemCalls[pkg] && (imp == "golang.org/x/sys/unix" || imp == "syscall") {
			bad = append(bad, imp)
		}
	}
	return bad
}

func TestAllowedImports(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	out := golist(t, "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"...")
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
		{"render", []string{"fmt", mod + "skill", mod + "internal/rivergc/gc"}, []string{"internal/rivergc/gc"}},
		{"render", []string{mod + "gate"}, []string{"gate"}},
		{"skill", []string{"os", mod + "internal/jsonnum"}, []string{"os"}},
		{"internal/backend/local/sweep", []string{mod + "internal/rivergc/scan"}, []string{"internal/rivergc/scan"}},
		{"newpkg", nil, []string{"(package missing from the allowed table)"}},
		{"internal/rivergc/gc", []string{mod + "internal/rivergc/scan", mod + "internal/backend/local/sweep", "os"}, nil},
		{"internal/rivergc/gc", []string{"golang.org/x/sys/unix", "syscall"}, []string{"golang.org/x/sys/unix", "syscall"}},
		{"internal/backend", []string{mod + "internal/rivergc/scan"}, []string{"internal/rivergc/scan"}},
	} {
		if got := violations(tc.pkg, tc.imports); !slices.Equal(got, tc.want) {
			t.Errorf("violations(%s, %v) = %v, want %v", tc.pkg, tc.imports, got, tc.want)
		}
	}
}
