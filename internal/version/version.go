// Package version says which build of plangate-gc and river-gc is running.
//
// A release build sets Version with
//
//	-ldflags "-X github.com/plangate-gc/plangate-gc/internal/version.Version=v1.2.3"
//
// Otherwise the Go build information answers: the module version of a
// `go install module@version` build, or "devel" and the VCS revision of a
// source build.
package version

import (
	"runtime/debug"
	"strings"
)

// Version is set by the linker for release builds; empty otherwise.
var Version string

// String reports the version of this binary: Version when set, else what
// runtime/debug.ReadBuildInfo knows.
func String() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return FromBuildInfo(bi.Main.Version, bi.Settings)
}

// FromBuildInfo derives the version from a main module version and build
// settings: a real module version as is; otherwise "devel", the first 12
// characters of vcs.revision and "+dirty" when vcs.modified is true. It
// never returns "(devel)" and never names the revision twice (a pseudo
// version already contains it).
func FromBuildInfo(mainVersion string, settings []debug.BuildSetting) string {
	if mainVersion != "" && mainVersion != "(devel)" {
		return mainVersion
	}
	var rev string
	dirty := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	var b strings.Builder
	b.WriteString("devel")
	if rev != "" {
		b.WriteString(" " + rev[:min(12, len(rev))])
		if dirty {
			b.WriteString("+dirty")
		}
	}
	return b.String()
}
