package clidoc

import (
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

type grammar struct {
	Mode   string   `enum:"a,b" default:"a" help:"The mode."`
	Scope  []string `sep:"none" placeholder:"SCOPE" complete:"x,y" help:"A scope (repeatable)."`
	Root   string   `placeholder:"DIR" help:"The root."`
	Out    string   `placeholder:"PATH" help:"Where to write."`
	Now    string   `placeholder:"RFC3339" help:"The time."`
	Secret bool     `hidden:"" help:"Not shown."`
	Force  bool     `short:"f" help:"Do it."`

	Run  runCmd   `cmd:"" help:"Run it."`
	Gone struct{} `cmd:"" hidden:"" help:"Hidden."`
}

type runCmd struct {
	Shell string `arg:"" enum:"bash,zsh" help:"The shell."`
}

func model(t *testing.T) Command {
	t.Helper()
	k, err := kong.New(&grammar{}, kong.Name("tool"), kong.Description("A tool.\n\nIt does things.\n\n  tool --force\n.starts with a dot"))
	if err != nil {
		t.Fatal(err)
	}
	return FromKong(k.Model)
}

func TestFromKongReadsTheParsersModel(t *testing.T) {
	m := model(t)
	byName := map[string]Flag{}
	for _, f := range m.Flags {
		byName[f.Name] = f
	}
	if _, ok := byName["secret"]; ok {
		t.Error("hidden flag listed")
	}
	if _, ok := byName["help"]; !ok {
		t.Error("--help missing: the parser accepts it")
	}
	for name, want := range map[string]Flag{
		"mode":  {Name: "mode", Placeholder: "MODE", Help: "The mode.", Default: "a", Kind: Values, Values: []string{"a", "b"}},
		"scope": {Name: "scope", Placeholder: "SCOPE", Help: "A scope (repeatable).", Repeatable: true, Kind: Values, Values: []string{"x", "y"}},
		"root":  {Name: "root", Placeholder: "DIR", Help: "The root.", Kind: Dirs},
		"out":   {Name: "out", Placeholder: "PATH", Help: "Where to write.", Kind: Files},
		"now":   {Name: "now", Placeholder: "RFC3339", Help: "The time."},
		"force": {Name: "force", Short: 'f', Help: "Do it."},
	} {
		if got := byName[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("--%s = %+v, want %+v", name, got, want)
		}
	}
	if len(m.Commands) != 1 || m.Commands[0].Name != "run" {
		t.Fatalf("commands = %+v, want run only (gone is hidden)", m.Commands)
	}
	if a := m.Commands[0].Args; len(a) != 1 || a[0].Kind != Values || !reflect.DeepEqual(a[0].Values, []string{"bash", "zsh"}) || a[0].Optional {
		t.Errorf("run's args = %+v", a)
	}
	if m.Help != "A tool." || !strings.HasPrefix(m.Detail, "It does things.") {
		t.Errorf("help %q, detail %q", m.Help, m.Detail)
	}
}

func TestManEscapesRoff(t *testing.T) {
	page := Man(model(t), Page{Source: "src", Manual: "User Commands", SeeAlso: []string{"other(1)"}})
	for _, want := range []string{
		".TH TOOL 1 \"\" \"src\" \"User Commands\"\n",
		"tool \\- A tool\n",
		".RS 4\n.nf\ntool \\-\\-force\n.fi\n.RE\n",
		"\\&.starts with a dot\n",
		".TP\n\\fB\\-f\\fR, \\fB\\-\\-force\\fR\nDo it.\n",
		".TP\n\\fB\\-\\-mode\\fR \\fIMODE\\fR\nThe mode. Values: a, b. Default: a.\n",
		".TP\n\\fB\\-\\-scope\\fR \\fISCOPE\\fR\nA scope (repeatable). Values: x, y.\n",
		".SS run\n",
		".BR other (1)\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("man page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "secret") {
		t.Error("hidden flag in the man page")
	}
}

func TestScriptsNameEveryFlag(t *testing.T) {
	m := model(t)
	for shell, script := range map[string]string{"bash": Bash(m), "zsh": Zsh(m), "fish": Fish(m)} {
		for _, f := range m.Flags {
			if !strings.Contains(script, f.Name) {
				t.Errorf("%s script lacks --%s", shell, f.Name)
			}
		}
		if strings.Contains(script, "secret") || strings.Contains(script, "gone") {
			t.Errorf("%s script offers a hidden flag or command", shell)
		}
	}
	if z := Zsh(m); !strings.Contains(z, `'*--scope=[A scope (repeatable)]:SCOPE:(x y)'`) {
		t.Errorf("zsh: repeatable --scope spec missing:\n%s", z)
	}
}
