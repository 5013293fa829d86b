package skill

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyDirection keeps the layering honest: skill is pure (no
// I/O, clock or randomness in its own imports) and nothing below the
// commands imports what sits above it.
func TestDependencyDirection(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	const mod = "github.com/plangate-gc/plangate-gc/"
	forbidden := map[string][]string{
		"skill":     {"os", "time", "log", "net", "math/rand", "math/rand/v2", mod + "gate", mod + "render", mod + "scan", mod + "sweep", mod + "gc", mod + "pipeline", mod + "eval"},
		"gitignore": {"os", "time", mod + "skill", mod + "gate", mod + "render"},
		"jsonnum":   {"os", "time", mod + "skill"},
		"gate":      {mod + "render", mod + "scan", mod + "sweep", mod + "gc", mod + "pipeline"},
		"render":    {"os", "time/tzdata", mod + "scan", mod + "sweep", mod + "pipeline", mod + "eval"},
		"scan":      {mod + "gc", mod + "render", mod + "gate", mod + "sweep"},
		"sweep":     {mod + "gc", mod + "render", mod + "gate", mod + "scan", mod + "skill"},
		"gc":        {mod + "render", mod + "gate", mod + "pipeline"},
	}
	for pkg, bad := range forbidden {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		imports := strings.Fields(string(out))
		for _, imp := range imports {
			for _, b := range bad {
				if imp == b {
					t.Errorf("%s imports %s", pkg, imp)
				}
			}
		}
	}
}
