package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// spinArg is the first argument that makes this binary one CPU spinner
// of -contend instead of the benchmark.
const spinArg = "-spin"

// spinLimit bounds a spinner's life even if the benchmark's kill and the
// parent-death signal were both missed.
const spinLimit = 90 * time.Minute

// spinMain runs this process as a spinner when it was started as one:
// a busy loop that ends when its parent is gone or after spinLimit (the
// benchmark kills it long before).
func spinMain() bool {
	if len(os.Args) != 2 || os.Args[1] != spinArg {
		return false
	}
	parent, deadline := os.Getppid(), time.Now().Add(spinLimit)
	for n := 0; ; n++ {
		if n%(1<<22) == 0 && (os.Getppid() != parent || time.Now().After(deadline)) {
			return true
		}
	}
}

// contend starts n spinners: processes that keep a CPU busy, with this
// process's niceness and in its session, so they compete with the engine
// and the program under test as another session's load would, and the
// kernel's autogroup fairness keeps them off other sessions (run the
// whole benchmark under `nice -n 19` to leave other sessions' share all
// but untouched even without autogroup). The returned stop kills them and
// waits for them; each also gets SIGKILL when the benchmark dies. pids
// are the spinners' process ids.
func contend(n int) (stop func(), pids []int, err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	var cmds []*exec.Cmd
	stop = func() {
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
	}
	for range n {
		c := exec.Command(self, spinArg)
		c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := c.Start(); err != nil {
			stop()
			return nil, nil, fmt.Errorf("starting a spinner: %w", err)
		}
		cmds = append(cmds, c)
		pids = append(pids, c.Process.Pid)
	}
	return stop, pids, nil
}

// niceness is this process's nice value (getpriority(2)), for the report.
func niceness() int {
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		return 0
	}
	return 20 - p // the raw system call answers 20 - nice
}
