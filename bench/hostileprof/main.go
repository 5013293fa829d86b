//go:build linux

// Command hostileprof profiles gc.Run with k copies of a hostile --exclude
// over a tree given with -root (the river-gc dry-run path without the CLI):
//
//	go run ./bench/hostileprof -root DIR -k 10000 -cpuprofile cpu.out -memprofile mem.out
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/cliparse"
	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/skill"
)

func main() {
	root := flag.String("root", "", "tree root (holds .river/ or artifacts/)")
	k := flag.Int("k", 1000, "copies of the exclude pattern")
	pattern := flag.String("pattern", "**/**/**/a*b*c*", "exclude pattern")
	cpu := flag.String("cpuprofile", "", "write a CPU profile here")
	mem := flag.String("memprofile", "", "write a heap (alloc_space) profile here")
	cli := flag.Bool("cli", false, "profile only the command-line parse (kong through internal/cliparse) of k --exclude flags")
	flag.Parse()
	if *cli {
		if err := profileCLI(*k, *pattern, *cpu, *mem); err != nil {
			fmt.Fprintln(os.Stderr, "hostileprof:", err)
			os.Exit(1)
		}
		return
	}
	if err := profile(*root, *k, *pattern, *cpu, *mem); err != nil {
		fmt.Fprintln(os.Stderr, "hostileprof:", err)
		os.Exit(1)
	}
}

func profile(dir string, k int, pattern, cpu, mem string) error {
	r, err := gc.OpenRoot(dir, true)
	if err != nil {
		return err
	}
	ex := make([]string, k)
	for i := range ex {
		ex[i] = pattern
	}
	cfg := gc.Config{Root: r, Scopes: skill.Scopes(), Now: time.Date(2025, 11, 29, 0, 0, 0, 0, time.UTC).Unix(),
		Retention: skill.Retention{Days: num("60"), MaxEntries: num("1000"), MaxSizeMb: num("500")}, Excludes: ex, Metadata: true}
	return profiled(cpu, mem, func() error {
		start := time.Now()
		out, err := gc.Run(context.Background(), cfg)
		if err != nil {
			return err
		}
		fmt.Printf("%d excludes: %v, removed %d\n", k, time.Since(start), out.RemovedCount())
		return nil
	})
}

func num(s string) jsonnum.Number {
	n, _ := jsonnum.Parse(s)
	return n
}

// profileCLI parses k --exclude flags into a grammar shaped like river-gc's
// (a repeatable string flag) through cliparse.Parse.
func profileCLI(k int, pattern, cpu, mem string) error {
	var grammar struct {
		Exclude []string `name:"exclude"`
		Quiet   bool     `name:"quiet"`
	}
	args := make([]string, 0, 2*k)
	for range k {
		args = append(args, "--exclude", pattern)
	}
	return profiled(cpu, mem, func() error {
		start := time.Now()
		if _, _, err := cliparse.Parse(&grammar, args); err != nil {
			return err
		}
		fmt.Printf("parsed %d --exclude in %v\n", len(grammar.Exclude), time.Since(start))
		return nil
	})
}

// profiled runs work with a CPU profile written to cpu and, after it, the
// allocation profile written to mem (either "" for none).
func profiled(cpu, mem string, work func() error) error {
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return err
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	runtime.MemProfileRate = 64 << 10
	if err := work(); err != nil {
		return err
	}
	if mem != "" {
		f, err := os.Create(mem)
		if err != nil {
			return err
		}
		defer f.Close()
		return pprof.Lookup("allocs").WriteTo(f, 0)
	}
	return nil
}
