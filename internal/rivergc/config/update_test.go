package config

import "flag"

// -update rewrites goldens where a package has them; this one has none, and
// accepts the flag so that `go test ./... -update` runs every package.
var _ = flag.Bool("update", false, "accepted; this package has no goldens")
