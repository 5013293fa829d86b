//go:build linux

package config

import (
	"strconv"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/skill"
)

// keepWithinSeconds reads --keep-within (restic's word): a Go duration
// ("36h", "90m", "1h30m") or whole days with a d, alone or before one
// ("7d", "1d12h"). It returns the span in whole seconds; "" and a zero
// span are 0, no protection. A negative, malformed or overlong span (more
// than 2^53−1 seconds) is refused in our words (exit 2).
func keepWithinSeconds(v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	bad := Invalid("gc-cfg-keep-within", q(v))
	days, rest := int64(0), v
	if i := strings.IndexByte(v, 'd'); i >= 0 {
		n, err := strconv.ParseUint(v[:i], 10, 32)
		if err != nil || v[:i] == "" || v[0] == '+' {
			return 0, bad
		}
		days, rest = int64(n), v[i+1:]
	}
	var d time.Duration
	if rest != "" {
		var err error
		if d, err = time.ParseDuration(rest); err != nil || d < 0 || strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "-") {
			return 0, bad
		}
	}
	secs := days*86400 + int64(d/time.Second)
	if secs > skill.MaxSafe {
		return 0, bad
	}
	return secs, nil
}
