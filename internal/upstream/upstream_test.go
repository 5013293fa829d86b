package upstream

import (
	"strings"
	"testing"
)

// TestUpstreamModulesLoad imports two of upstream's own modules and calls
// one function, proving the installed copy runs.
func TestUpstreamModulesLoad(t *testing.T) {
	dir := Dir(t)
	out := Node(t, dir, nil, "--input-type=module", "-e",
		`import {parseLineComments} from './src/lib/review-engine.mjs';
		 console.log(JSON.stringify(parseLineComments('a.txt:3: hello')));`)
	if !strings.Contains(string(out), `"a.txt"`) {
		t.Fatalf("parseLineComments gave %s", out)
	}
}
