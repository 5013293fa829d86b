package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// program is one contender: its name and its command line against an
// endpoint (run through env(1), which sets its environment and execs it,
// so GNU time measures the program itself).
type program struct {
	name string
	argv func(b *bench, endpoint string) []string
}

// programs returns the contenders named in only, in a fixed order.
func (b *bench) programs(only []string) []program {
	riverGC := func(bin string) func(b *bench, endpoint string) []string {
		return func(b *bench, endpoint string) []string {
			return append(b.env(endpoint, false), bin, "--root", "s3://"+b.bucket+"/"+b.prefix,
				"--force", "--json", "--quiet", "--scope", "tmp", "--now", b.now,
				"--retention-days", "60", "--max-entries", "1000000000", "--max-size-mb", "1000000")
		}
	}
	all := []program{
		{"river-gc", riverGC(b.riverGC)},
		{"river-gc-before", riverGC(b.riverGCBefore)},
		{"rclone", func(b *bench, endpoint string) []string {
			return append(b.env(endpoint, true), "rclone", "delete", "--min-age", "1s", "--use-server-modtime",
				"bench:"+b.bucket+"/"+b.prefix)
		}},
		{"aws", func(b *bench, endpoint string) []string {
			return append(b.env(endpoint, false), "aws", "s3", "rm", "--recursive", "--only-show-errors",
				"s3://"+b.bucket+"/"+b.prefix+"/")
		}},
		{"sdk-ifmatch", func(b *bench, endpoint string) []string {
			self, _ := os.Executable()
			return append(b.env(endpoint, false), self, ifMatchArg, b.bucket, b.prefix)
		}},
	}
	var out []program
	for _, p := range all {
		if slices.Contains(only, p.name) {
			out = append(out, p)
		}
	}
	return out
}

// env is the env(1) prefix that points a program at endpoint with the
// engine's key pair: the AWS SDK's standard variables (river-gc, aws) and
// an rclone remote named bench defined by RCLONE_CONFIG_BENCH_*. For
// rclone it removes AWS_CA_BUNDLE: rclone 1.60's SDK fails to load a CA
// bundle for a plain-http endpoint (LoadCustomCABundleError), and no TLS
// is involved here.
func (b *bench) env(endpoint string, rclone bool) []string {
	s := b.engine.Server
	argv := []string{"env"}
	if rclone {
		argv = append(argv, "-u", "AWS_CA_BUNDLE")
	}
	argv = append(argv,
		"AWS_ENDPOINT_URL_S3="+endpoint, "AWS_ENDPOINT_URL="+endpoint,
		"AWS_REGION="+s.Region, "AWS_DEFAULT_REGION="+s.Region,
		"AWS_ACCESS_KEY_ID="+s.AccessKey, "AWS_SECRET_ACCESS_KEY="+s.SecretKey,
		"AWS_EC2_METADATA_DISABLED=true",
		"RCLONE_CONFIG_BENCH_TYPE=s3", "RCLONE_CONFIG_BENCH_PROVIDER=SeaweedFS",
		"RCLONE_CONFIG_BENCH_ENDPOINT="+endpoint, "RCLONE_CONFIG_BENCH_REGION="+s.Region,
		"RCLONE_CONFIG_BENCH_ACCESS_KEY_ID="+s.AccessKey, "RCLONE_CONFIG_BENCH_SECRET_ACCESS_KEY="+s.SecretKey,
		"RCLONE_CONFIG_BENCH_FORCE_PATH_STYLE=true", "RCLONE_CONFIG=/dev/null")
	return argv
}

// report prints the wall-time table (with each program's CPU and the
// engine's over the same runs), the load average and the request table.
func (b *bench) report(progs []program, times map[string][]sample, counts map[string]map[s3test.Kind]int, loads []float64) {
	fmt.Printf("| program | median wall s | runs (wall s) | median CPU s | median engine CPU s | engine CPU ms per object | other processes' cores busy (runs) | river-gc ÷ it: wall | river-gc ÷ it: CPU (own + engine) |\n|---|---|---|---|---|---|---|---|---|\n")
	med := func(name string, f func(sample) float64) float64 {
		xs := make([]float64, len(times[name]))
		for i, t := range times[name] {
			xs[i] = f(t)
		}
		return measure.Median(xs)
	}
	wall := func(t sample) float64 { return t.wall }
	total := func(t sample) float64 { return t.cpu + t.engine }
	for _, p := range progs {
		wallRatio, cpuRatio := "—", "—"
		if len(times["river-gc"]) > 0 && p.name != "river-gc" {
			wallRatio = fmt.Sprintf("%.2f", med("river-gc", wall)/med(p.name, wall))
			cpuRatio = fmt.Sprintf("%.2f", med("river-gc", total)/med(p.name, total))
		}
		eng := med(p.name, func(t sample) float64 { return t.engine })
		busy := make([]float64, len(times[p.name]))
		for i, t := range times[p.name] {
			busy[i] = t.othersBusy()
		}
		fmt.Printf("| %s | %.2f | %s | %.2f | %.2f | %.3f | %s | %s | %s |\n", p.name, med(p.name, wall), fmtRuns(times[p.name]),
			med(p.name, func(t sample) float64 { return t.cpu }), eng, 1000*eng/float64(b.n), fmtFloats(busy), wallRatio, cpuRatio)
	}
	fmt.Printf("\nLoad average (1 min) before the first run and after each: %s\n", fmtFloats(loads))
	if len(counts) == 0 {
		return
	}
	minimum := 2 * ((b.n + 999) / 1000)
	fmt.Printf("\nRequests through the counting proxy, %d objects (minimum: %d list pages + %d delete batches = %d, %.4f per object)\n\n",
		b.n, minimum/2, minimum/2, minimum, float64(minimum)/float64(b.n))
	fmt.Printf("| program | list | get | head | put | delete | batch delete | other | total | per object | ÷ minimum |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range progs {
		c, ok := counts[p.name]
		if !ok {
			continue
		}
		total := 0
		for _, v := range c {
			total += v
		}
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %.4f | %.2f |\n", p.name,
			c[s3test.KindList]+c[s3test.KindListVersions], c[s3test.KindGet], c[s3test.KindHead], c[s3test.KindPut],
			c[s3test.KindDelete], c[s3test.KindDeleteBatch], c[s3test.KindOther],
			total, float64(total)/float64(b.n), float64(total)/float64(minimum))
	}
	fmt.Fprintln(os.Stdout)
}

// fmtRuns lists the runs' wall times.
func fmtRuns(ts []sample) string {
	s := make([]float64, len(ts))
	for i, t := range ts {
		s[i] = t.wall
	}
	return fmtFloats(s)
}

// fmtFloats lists xs with two decimals.
func fmtFloats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(s, ", ")
}
