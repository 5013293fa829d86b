package main

import (
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/testbin"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testbin.NoRaceExitSleep()
	testscript.Main(m, map[string]func(){
		"plangate-gc": func() { exit(main1()) },
	})
}

// TestScripts runs the command end to end (testdata/script/*.txtar);
// -update rewrites the scripts' golden files.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
	})
}
