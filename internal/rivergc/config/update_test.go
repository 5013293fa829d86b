package config

import "flag"

// update is -update: the tests rewrite this package's goldens from the
// current output instead of comparing (review the diff before committing).
var update = flag.Bool("update", false, "rewrite golden files from the current output (review the diff)")
