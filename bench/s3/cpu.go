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
// (user + system, from GNU time) and the engine's CPU time over the same
// run (from /proc/<weed pid>/stat before and after), all in seconds.
type sample struct {
	wall, cpu, engine float64
}

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
