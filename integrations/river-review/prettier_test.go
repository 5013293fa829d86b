package riverreview

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/contracts"
)

// prettierConfig is upstream's formatting style. The snapshot carries no
// .prettierrc, so it is inferred: with it, prettier --check passes on
// every upstream skill, script and runner file (decision 66); with
// prettier's defaults, upstream's own SKILL.md files fail.
const prettierConfig = `{"singleQuote":true,"printWidth":100,"trailingComma":"es5"}`

// prettierCheck runs `prettier --check` of the version upstream's
// package-lock pins on file, installing it once into the user cache with
// npm; it skips, saying so, when npm cannot install it.
func prettierCheck(t *testing.T, file string) {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join(contracts.Dir(t), "upstream", "package-lock.json"))
	if err != nil {
		t.Skipf("no upstream package-lock.json: %v", err)
	}
	var l struct {
		Packages map[string]struct{ Version string } `json:"packages"`
	}
	if err := json.Unmarshal(lock, &l); err != nil || l.Packages["node_modules/prettier"].Version == "" {
		t.Fatalf("package-lock.json pins no prettier: %v", err)
	}
	version := l.Packages["node_modules/prettier"].Version
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory for prettier: %v", err)
	}
	dir := filepath.Join(cache, "plangate-gc", "prettier-"+version)
	bin := filepath.Join(dir, "node_modules", ".bin", "prettier")
	if _, err := os.Stat(bin); err != nil {
		if _, err := exec.LookPath("npm"); err != nil {
			t.Skip("npm not available to install prettier " + version)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("npm", "install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "prettier@"+version)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("npm could not install prettier %s: %v\n%s", version, err, out)
		}
	}
	cfg := filepath.Join(t.TempDir(), "prettierrc.json")
	if err := os.WriteFile(cfg, []byte(prettierConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "--config", cfg, "--check", file).CombinedOutput(); err != nil {
		t.Errorf("prettier %s --check: %v\n%s", version, err, out)
	}
}
