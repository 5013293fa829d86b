package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// sample is one timed run of a program: its wall time, its own CPU time
// (user + system, from GNU time), the engine's CPU time over the same
// run (from /proc/<weed pid>/stat before and after) and the CPU time the
// rest of the machine used meanwhile (/proc/stat's busy time of all
// CPUs, less the program's and the engine's), all in seconds.
type sample struct {
	wall, cpu, engine, others float64
}

// othersBusy is how many cores the rest of the machine kept busy during
// the run: the contention the program and the engine ran under, which
// the load average (it counts waiting on I/O, and lags by a minute)
// tells only roughly.
func (s sample) othersBusy() float64 { return s.others / s.wall }

// clockTicks is the unit of /proc/<pid>/stat's CPU times (getconf
// CLK_TCK; 100 on Linux unless told otherwise).
var clockTicks = func() float64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if n, perr := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && perr == nil && n > 0 {
		return float64(n)
	}
	return 100
}()

// processCPU returns the user + system CPU seconds process pid has used
// so far, all its threads together (fields 14 and 15 of
// /proc/<pid>/stat, counted after the command name, which may hold
// spaces and parentheses).
func processCPU(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	user, err1 := strconv.ParseFloat(f[11], 64)
	sys, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: utime %q stime %q", pid, f[11], f[12])
	}
	return (user + sys) / clockTicks, nil
}

// machineCPU returns the CPU seconds all CPUs have spent busy so far
// (the first line of /proc/stat: user, nice, system, irq, softirq and
// steal; idle and iowait left out), or -1.
func machineCPU() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return -1
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return -1
	}
	busy := 0.0
	for _, i := range []int{1, 2, 3, 6, 7, 8} {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return -1
		}
		busy += v
	}
	return busy / clockTicks
}

// loadAverage returns the one-minute load average (/proc/loadavg), or -1.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
