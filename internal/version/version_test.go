package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	rev := "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name     string
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"module version", "v1.2.3", nil, "v1.2.3"},
		{"pseudo version keeps its own hash", "v0.0.0-20261201000000-0123456789ab",
			[]debug.BuildSetting{{Key: "vcs.revision", Value: rev}}, "v0.0.0-20261201000000-0123456789ab"},
		{"source build", "(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}, "devel 0123456789ab"},
		{"dirty source build", "(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}, "devel 0123456789ab+dirty"},
		{"no vcs", "(devel)", nil, "devel"},
		{"empty", "", nil, "devel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FromBuildInfo(tc.main, tc.settings); got != tc.want {
				t.Errorf("FromBuildInfo = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestStringPrefersLinkerVersion(t *testing.T) {
	old := Version
	defer func() { Version = old }()
	Version = "v9.9.9"
	if got := String(); got != "v9.9.9" {
		t.Errorf("String = %q", got)
	}
	Version = ""
	if got := String(); strings.Contains(got, "(devel)") || got == "" {
		t.Errorf("String = %q, want no (devel)", got)
	}
}
