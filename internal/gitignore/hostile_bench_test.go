package gitignore

import (
	"fmt"
	"strings"
	"testing"
)

// hostilePattern is git's exponential case: several "**" and several '*'
// that can each split the text many ways.
const hostilePattern = "**/**/**/a*b*c*"

// hostilePaths returns n paths of depth segments each, built so that the
// pattern almost matches every segment ("ab" without the final "c").
func hostilePaths(n, depth int) []string {
	out := make([]string, n)
	for i := range out {
		segs := make([]string, depth)
		for j := range segs {
			segs[j] = fmt.Sprintf("aab%d", (i+j)%10)
		}
		out[i] = strings.Join(segs, "/")
	}
	return out
}

// BenchmarkHostile measures the hostile exclude document: 1,000 and 100,000
// copies of hostilePattern (Compile included) against 100 paths of 30
// segments; one op is the whole document. The "glob" sub-benchmarks compile
// one pattern and match it against one path of n, 2n and 4n segments: the
// time per op should grow about linearly.
func BenchmarkHostile(b *testing.B) {
	paths := hostilePaths(100, 30)
	for _, copies := range []int{1000, 100000} {
		doc := make([]string, copies)
		for i := range doc {
			doc[i] = hostilePattern
		}
		b.Run(fmt.Sprintf("copies=%d", copies), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := Compile(doc)
				if err != nil {
					b.Fatal(err)
				}
				for _, p := range paths {
					m.Match(p)
				}
			}
		})
	}
	for _, depth := range []int{8, 16, 32} {
		text := hostilePaths(1, depth)[0]
		b.Run(fmt.Sprintf("glob/segments=%d", depth), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				compileGlob(hostilePattern).match(text)
			}
		})
	}
}
