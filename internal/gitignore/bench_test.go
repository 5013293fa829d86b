package gitignore

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
)

// benchPatterns is a realistic 20-line .gitignore: literals, suffixes,
// anchored globs, "**", dir-only rules and re-includes.
var benchPatterns = []string{
	"node_modules/", ".DS_Store", "*.log", "!important.log", "/build/",
	"dist/", "*.o", "*.tmp", "coverage/", "**/testdata/golden/*.out",
	"/vendor/**", "!/vendor/modules.txt", ".river/cache/", "*.sw[op]",
	"docs/**/*.pdf", "__pycache__/", "*.py[cod]", "target/", "/tmp*", ".env*",
}

// benchPaths returns n deterministic repository paths of depth 1 to 6.
func benchPaths(n int) []string {
	r := rand.New(rand.NewSource(1))
	dirs := []string{"src", "internal", "pkg", "cmd", "docs", "vendor", "node_modules",
		"build", "testdata", "golden", ".river", "lib", "a", "util"}
	files := []string{"main.go", "x.log", "important.log", "readme.md", "y.o", "z.out",
		"manual.pdf", ".DS_Store", "mod.py", "mod.pyc", ".env.local", "data.json", "f.swp"}
	out := make([]string, n)
	for i := range out {
		var sb strings.Builder
		for d := r.Intn(6); d > 0; d-- {
			sb.WriteString(dirs[r.Intn(len(dirs))])
			sb.WriteByte('/')
		}
		sb.WriteString(files[r.Intn(len(files))])
		out[i] = sb.String()
	}
	return out
}

// BenchmarkMatch measures Match over 10k paths with 20 patterns, alone and
// through a Session (which remembers directory verdicts), in the same run;
// one op is one path. Both must report 0 allocs/op.
func BenchmarkMatch(b *testing.B) {
	m, err := Compile(benchPatterns)
	if err != nil {
		b.Fatal(err)
	}
	paths := benchPaths(10000)
	for _, bc := range []struct {
		name  string
		match func(string) bool
	}{{"matcher", m.Match}, {"session", m.Session().Match}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for i := 0; b.Loop(); i++ {
				if bc.match(paths[i%len(paths)]) {
					n++
				}
			}
			_ = n
		})
	}
}

// TestMatchNoAllocs pins the zero-allocation property the benchmark reports.
func TestMatchNoAllocs(t *testing.T) {
	m, err := Compile(benchPatterns)
	if err != nil {
		t.Fatal(err)
	}
	paths := benchPaths(200)
	allocs := testing.AllocsPerRun(10, func() {
		for _, p := range paths {
			m.Match(p)
		}
	})
	if allocs != 0 {
		t.Errorf("Match allocates %v times per 200 paths", allocs)
	}
}

// TestMatchConcurrent runs Match from several goroutines (meaningful under
// -race) and checks they agree with a sequential run.
func TestMatchConcurrent(t *testing.T) {
	m, err := Compile(benchPatterns)
	if err != nil {
		t.Fatal(err)
	}
	paths := benchPaths(2000)
	want := make([]bool, len(paths))
	for i, p := range paths {
		want[i] = m.Match(p)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, p := range paths {
				if m.Match(p) != want[i] {
					errs <- fmt.Sprintf("Match(%q) differs across goroutines", p)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
