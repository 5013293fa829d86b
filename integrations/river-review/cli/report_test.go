package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/npmtest"
	"github.com/plangate-gc/plangate-gc/internal/upstream"
)

// TestApplyReportsAndRegistersThePage: apply.sh says, one line each, what
// it added to upstream's files and which files it wrote; re-run, it says
// everything is already there. It registers the guide where upstream lists
// its pages (the sidebar, after use-riverbed-memory; skipped, and said so,
// in the snapshot, which has no sidebars.js), the page has its English
// twin (upstream's check-bilingual-pairs pairs them), and the sidebar
// still loads.
func TestApplyReportsAndRegistersThePage(t *testing.T) {
	t.Parallel()
	snapshot := upstream.Copy(t)
	out, code := apply(t, snapshot)
	if code != 0 || !strings.Contains(string(out), "sidebars.js: skipped the guide page in the sidebar (guides, after use-riverbed-memory): no sidebars.js in this checkout\n") {
		t.Errorf("apply.sh on the snapshot: exit %d\n%s", code, out)
	}

	dir := upstream.Copy(t)
	sidebar, err := os.ReadFile(filepath.Join("testdata", "sidebars.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sidebars.js"), sidebar, 0o644); err != nil {
		t.Fatal(err)
	}
	first, code := apply(t, dir)
	for _, want := range []string{
		"src/cli.mjs: added the import of runGcCommand\n",
		"src/cli.mjs: added the gc line of printHelp\n",
		"src/cli.mjs: added the gc dispatch at the start of main\n",
		"runners/cli/src/index.mjs: replaced the gc command and its dispatch\n",
		"sidebars.js: added the guide page in the sidebar (guides, after use-riverbed-memory)\n",
		"src/commands/gc.mjs: wrote (new)\n",
		"runners/cli/src/commands/gc.mjs: wrote (new)\n",
		"tests/cli-gc.test.mjs: wrote (new)\n",
		"pages/guides/river-gc.md: wrote (new)\n",
		"pages/guides/river-gc.en.md: wrote (new)\n",
	} {
		if code != 0 || !strings.Contains(string(first), want) {
			t.Errorf("apply.sh: exit %d, no %q in\n%s", code, want, first)
		}
	}
	again, _ := apply(t, dir)
	if strings.Contains(string(again), "added") || strings.Contains(string(again), "wrote") ||
		strings.Count(string(again), "already present") != 6 || strings.Count(string(again), ": unchanged\n") != 5 {
		t.Errorf("a second apply.sh reports changes:\n%s", again)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "sidebars.js"))
	if want := strings.Replace(string(sidebar), "'guides/use-riverbed-memory',\n", "'guides/use-riverbed-memory',\n        'guides/river-gc',\n", 1); string(got) != want {
		t.Errorf("sidebars.js after apply.sh:\n%s", got)
	}
	o, e, c := npmtest.Run(t, dir, nil, "node", "-e",
		"const s = require('./sidebars.js'); const fs = require('node:fs');"+
			"const items = s.docs[1].items; if (!items.includes('guides/river-gc')) process.exit(3);"+
			"for (const f of ['pages/guides/river-gc.md', 'pages/guides/river-gc.en.md']) if (!fs.existsSync(f)) process.exit(4);")
	if c != 0 {
		t.Errorf("the sidebar does not load or list the page: exit %d\n%s%s", c, o, e)
	}
	o, e, c = npmtest.Run(t, dir, nil, "node", "scripts/check-bilingual-pairs.mjs")
	if c != 0 || !strings.Contains(string(o), "pages/guides/river-gc.md ↔ river-gc.en.md") {
		t.Errorf("check-bilingual-pairs: exit %d\n%s%s", c, o, e)
	}
}
