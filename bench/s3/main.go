// Command s3 measures river-gc on a bucket against what users would pick
// instead, on the same objects of a loopback S3 engine (SeaweedFS, the
// tests' engine: internal/s3test), in one run:
//
//	go run ./bench/s3                      # 10,000 objects, 3 runs each
//	FULL=1 go run ./bench/s3               # 100,000 objects (SPEC H8)
//	go run ./bench/s3 -n 30000 -runs 5 -src /work/main
//
// Rows it prints:
//   - wall time, median of -runs alternating runs (river-gc, rclone, aws,
//     river-gc, …), the prefix re-uploaded (untimed, bounded concurrency)
//     before every run, each program deleting every object of it:
//     `river-gc --root s3://B/P --force --json` (its 60-day retention,
//     --now pinned 61 days after the upload), `rclone delete --min-age 1s
//     --use-server-modtime` (the same selection by age; without
//     --use-server-modtime rclone reads each object's mtime with a HEAD)
//     and `aws s3 rm --recursive`; ratios river-gc ÷ each;
//   - requests per object of one more run of each through a counting
//     proxy (internal/s3test.FaultProxy, no faults), by kind, and river-gc's
//     against the minimum: one list page and one delete batch per 1000
//     objects.
//
// The programs talk plain http to 127.0.0.1 with AWS_CA_BUNDLE set as on
// this machine; rclone 1.60's SDK refuses that (LoadCustomCABundleError),
// so rclone alone runs with AWS_CA_BUNDLE removed from its environment
// (no TLS is involved). No test asserts a time; this is a report.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

func main() {
	if ifMatchMain() {
		return
	}
	def := 10000
	if os.Getenv("FULL") == "1" {
		def = 100000
	}
	n := flag.Int("n", def, "objects in the prefix (FULL=1: 100000)")
	runs := flag.Int("runs", 3, "timed runs per program (the median is reported)")
	src := flag.String("src", ".", "checkout to build river-gc from")
	workers := flag.Int("upload-workers", 32, "concurrent uploads while re-filling the prefix (untimed)")
	only := flag.String("only", "river-gc,rclone,aws,sdk-ifmatch", "comma-separated programs to run")
	flag.Parse()
	if err := run(*n, *runs, *workers, *src, strings.Split(*only, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "bench/s3:", err)
		os.Exit(1)
	}
}

// bench is one run of the command: the engine, the bucket, the programs.
type bench struct {
	engine  *s3test.Engine
	client  *s3.Client
	bucket  string
	prefix  string
	n       int
	workers int
	dir     string
	riverGC string
	now     string
}

func run(n, runs, workers int, src string, only []string) error {
	repo, err := s3test.FindRepo()
	if err != nil {
		return err
	}
	weed := os.Getenv(s3test.EnvWeed)
	if weed == "" {
		fmt.Fprintln(os.Stderr, "building weed (once; cached) ...")
		if weed, err = s3test.BuildWeed(repo); err != nil {
			return err
		}
	}
	dir, err := os.MkdirTemp("", "bench-s3")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	e, err := s3test.Launch(weed, dir)
	if err != nil {
		return err
	}
	defer e.Stop()
	b := &bench{engine: e, client: e.Client(), bucket: "bench", prefix: "org/repo", n: n, workers: workers, dir: dir,
		riverGC: filepath.Join(dir, "river-gc")}
	ctx := context.Background()
	if _, err := b.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &b.bucket}); err != nil {
		return err
	}
	build := exec.Command("go", "build", "-o", b.riverGC, "./cmd/river-gc")
	build.Dir, build.Stdout, build.Stderr = src, os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building river-gc in %s: %w", src, err)
	}
	rev, _ := exec.Command("git", "-C", src, "rev-parse", "--short", "HEAD").Output()
	rcloneVersion, _ := exec.Command("rclone", "version").Output()
	awsVersion, _ := exec.Command("aws", "--version").CombinedOutput()
	fmt.Printf("river-gc built from %s at %s; %s; %s; weed %s; %d objects, %d runs each\n\n",
		src, strings.TrimSpace(string(rev)), firstLine(rcloneVersion), firstLine(awsVersion), filepath.Base(filepath.Dir(weed)), n, runs)
	progs := b.programs(only)
	if len(progs) == 0 {
		return fmt.Errorf("-only %v names no program", only)
	}
	times := map[string][]float64{}
	for r := 0; r < runs; r++ {
		for _, p := range progs {
			t, err := b.timed(p, e.Endpoint)
			if err != nil {
				return err
			}
			times[p.name] = append(times[p.name], t)
			fmt.Fprintf(os.Stderr, "run %d: %s %.2f s\n", r+1, p.name, t)
		}
	}
	counts := map[string]map[s3test.Kind]int{}
	for _, p := range progs {
		c, err := b.counted(p)
		if err != nil {
			return err
		}
		counts[p.name] = c
	}
	b.report(progs, times, counts)
	return nil
}

// timed re-fills the prefix (untimed), runs p against endpoint and checks
// that it left no object.
func (b *bench) timed(p program, endpoint string) (float64, error) {
	if err := b.fill(); err != nil {
		return 0, err
	}
	res, err := measure.Run(p.argv(b, endpoint), measure.Options{Limit: 30 * time.Minute})
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	if res.Killed {
		return 0, fmt.Errorf("%s: killed after 30 minutes", p.name)
	}
	if left, err := b.count(); err != nil || left != 0 {
		return 0, fmt.Errorf("%s left %d of %d objects (%v)", p.name, left, b.n, err)
	}
	return res.Wall, nil
}

// counted runs p once more through a counting proxy and returns its
// requests by kind.
func (b *bench) counted(p program) (map[s3test.Kind]int, error) {
	if err := b.fill(); err != nil {
		return nil, err
	}
	proxy, err := s3test.NewProxy(&b.engine.Server)
	if err != nil {
		return nil, err
	}
	defer proxy.Close()
	if _, err := measure.Run(p.argv(b, proxy.URL), measure.Options{Limit: 30 * time.Minute}); err != nil {
		return nil, fmt.Errorf("%s through the proxy: %w", p.name, err)
	}
	if left, err := b.count(); err != nil || left != 0 {
		return nil, fmt.Errorf("%s through the proxy left %d of %d objects (%v)", p.name, left, b.n, err)
	}
	c := map[s3test.Kind]int{}
	for _, k := range s3test.Kinds {
		c[k] = proxy.Count(k)
	}
	return c, nil
}

// firstLine is the first line of b, trimmed.
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}
