// Command s3 measures river-gc on a bucket against what users would pick
// instead, on the same objects of a loopback S3 engine (SeaweedFS, the
// tests' engine: internal/s3test), in one run:
//
//	go run ./bench/s3                      # 10,000 objects, 3 runs each
//	FULL=1 go run ./bench/s3               # 100,000 objects (SPEC H8)
//	go run ./bench/s3 -n 30000 -runs 5 -src /work/main
//	go run ./bench/s3 -before /work/before ...  # also the other checkout's river-gc, alternating
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
//   - each program's own CPU time and the engine's over the same run
//     (/proc/<weed pid>/stat before and after), and the load average;
//   - requests per object of one more run of each through a counting
//     proxy (internal/s3test.FaultProxy, no faults), by kind, and river-gc's
//     against the minimum: one list page and one delete batch per 1000
//     objects.
//
// The programs talk plain http to 127.0.0.1 with AWS_CA_BUNDLE set as on
// this machine; rclone 1.60's SDK refuses that (LoadCustomCABundleError),
// so rclone alone runs with AWS_CA_BUNDLE removed from its environment
// (no TLS is involved). With -scale it measures instead the engine's two
// conditional delete paths (DeleteObjects with an ETag per key, and
// DeleteObject If-Match) driven from this process at the given in-flight
// counts. No test asserts a time; this is a report.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

func main() {
	if ifMatchMain() || spinMain() {
		return
	}
	def := 10000
	if os.Getenv("FULL") == "1" {
		def = 100000
	}
	n := flag.Int("n", def, "objects in the prefix (FULL=1: 100000)")
	runs := flag.Int("runs", 3, "timed runs per program (the median is reported)")
	src := flag.String("src", ".", "checkout to build river-gc from")
	before := flag.String("before", "", "checkout to build a second river-gc from, run as river-gc-before alternating with the others (empty: none)")
	workers := flag.Int("upload-workers", 32, "concurrent uploads while re-filling the prefix (untimed)")
	only := flag.String("only", "river-gc,rclone,aws,sdk-ifmatch", "comma-separated programs to run")
	defCount := "river-gc,rclone,aws,sdk-ifmatch"
	if os.Getenv("FULL") == "1" {
		defCount = "river-gc" // the others send one DELETE per object and one list page per 1000: counted at 10k
	}
	count := flag.String("count", defCount, "comma-separated programs to run once more through the counting proxy (FULL=1: river-gc)")
	scaleFlag := flag.String("scale", "", "instead of the programs: the engine's delete paths from this process, at these in-flight counts (e.g. 1,4,16)")
	scaleBatch := flag.Int("scale-batch", 1000, "keys a DeleteObjects request carries in -scale")
	spinners := flag.Int("contend", 0, "CPU spinners running beside the engine for the whole benchmark, in this session and at this niceness (run under nice -n 19)")
	flag.Parse()
	scaleAt, err := parseInts(*scaleFlag)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/s3: -scale:", err)
		os.Exit(2)
	}
	stop := func() {}
	if *spinners > 0 {
		if stop, _, err = contend(*spinners); err != nil {
			fmt.Fprintln(os.Stderr, "bench/s3: -contend:", err)
			os.Exit(1)
		}
		fmt.Printf("contention: %d CPU spinners beside the engine, niceness %d\n\n", *spinners, niceness())
	}
	progs := strings.Split(*only, ",")
	if *before != "" {
		progs = append(progs, "river-gc-before")
	}
	err = run(*n, *runs, *workers, *src, *before, progs, strings.Split(*count, ","), scaleAt, *scaleBatch)
	stop()
	if err != nil {
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
	// riverGCBefore is -before's build, run as river-gc-before.
	riverGCBefore string
	now           string
}

func run(n, runs, workers int, src, before string, only, count []string, scaleAt []int, scaleBatch int) error {
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
		riverGC: filepath.Join(dir, "river-gc"), riverGCBefore: filepath.Join(dir, "river-gc-before")}
	ctx := context.Background()
	if _, err := b.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &b.bucket}); err != nil {
		return err
	}
	if len(scaleAt) > 0 {
		rows, err := b.scale(scaleAt, scaleBatch)
		if err != nil {
			return err
		}
		b.reportScale(rows)
		return nil
	}
	if err := buildRiverGC(src, b.riverGC); err != nil {
		return err
	}
	rev, _ := exec.Command("git", "-C", src, "rev-parse", "--short", "HEAD").Output()
	if before != "" {
		if err := buildRiverGC(before, b.riverGCBefore); err != nil {
			return err
		}
		brev, _ := exec.Command("git", "-C", before, "rev-parse", "--short", "HEAD").Output()
		fmt.Printf("river-gc-before built from %s at %s\n", before, strings.TrimSpace(string(brev)))
	}
	rcloneVersion, _ := exec.Command("rclone", "version").Output()
	awsVersion, _ := exec.Command("aws", "--version").CombinedOutput()
	fmt.Printf("river-gc built from %s at %s; %s; %s; weed %s; %d objects, %d runs each\n\n",
		src, strings.TrimSpace(string(rev)), firstLine(rcloneVersion), firstLine(awsVersion), filepath.Base(filepath.Dir(weed)), n, runs)
	progs := b.programs(only)
	if len(progs) == 0 {
		return fmt.Errorf("-only %v names no program", only)
	}
	times := map[string][]sample{}
	loads := []float64{loadAverage()}
	for r := 0; r < runs; r++ {
		for _, p := range progs {
			t, err := b.timed(p, e.Endpoint)
			if err != nil {
				return err
			}
			times[p.name] = append(times[p.name], t)
			loads = append(loads, loadAverage())
			fmt.Fprintf(os.Stderr, "run %d: %s %.2f s wall, %.2f s CPU, engine %.2f s CPU, other processes %.2f cores busy (load %.2f)\n",
				r+1, p.name, t.wall, t.cpu, t.engine, t.othersBusy(), loads[len(loads)-1])
		}
	}
	counts := map[string]map[s3test.Kind]int{}
	for _, p := range b.programs(count) {
		if _, ran := times[p.name]; !ran {
			continue
		}
		c, err := b.counted(p)
		if err != nil {
			return err
		}
		counts[p.name] = c
	}
	b.report(progs, times, counts, loads)
	return nil
}

// timed re-fills the prefix (untimed), runs p against endpoint and checks
// that it left no object. Besides p's wall and CPU time it reads the
// engine's CPU time before and after, so the engine's cost per deleted
// key can be told apart from the client's.
func (b *bench) timed(p program, endpoint string) (sample, error) {
	if err := b.fill(); err != nil {
		return sample{}, err
	}
	before, err := processCPU(b.engine.Pid)
	if err != nil {
		return sample{}, err
	}
	machine := machineCPU()
	res, err := measure.Run(p.argv(b, endpoint), measure.Options{Limit: 60 * time.Minute})
	machine = machineCPU() - machine
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", p.name, err)
	}
	after, err := processCPU(b.engine.Pid)
	if err != nil {
		return sample{}, err
	}
	if res.Killed {
		return sample{}, fmt.Errorf("%s: killed after 60 minutes", p.name)
	}
	if left, err := b.count(); err != nil || left != 0 {
		return sample{}, fmt.Errorf("%s left %d of %d objects (%v)", p.name, left, b.n, err)
	}
	t := sample{wall: res.Wall, cpu: res.CPU, engine: after - before}
	t.others = max(0, machine-t.cpu-t.engine)
	return t, nil
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
	if _, err := measure.Run(p.argv(b, proxy.URL), measure.Options{Limit: 60 * time.Minute}); err != nil {
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

// buildRiverGC builds the checkout src's river-gc at out.
func buildRiverGC(src, out string) error {
	build := exec.Command("go", "build", "-o", out, "./cmd/river-gc")
	build.Dir, build.Stdout, build.Stderr = src, os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building river-gc in %s: %w", src, err)
	}
	return nil
}

// parseInts reads a comma-separated list of positive integers ("" is none).
func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// firstLine is the first line of b, trimmed.
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}
