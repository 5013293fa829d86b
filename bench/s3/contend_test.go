package main

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestMain lets this test binary be a spinner too: contend starts
// os.Executable() with spinArg.
func TestMain(m *testing.M) {
	if spinMain() {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestContendSpinnersBurnCPUAndStop checks that -contend's spinners are
// running processes that use CPU (their own and the machine's busy time
// grow) and that stop leaves none of them behind.
func TestContendSpinnersBurnCPUAndStop(t *testing.T) {
	machine := machineCPU()
	if machine < 0 {
		t.Fatal("machineCPU cannot read /proc/stat")
	}
	stop, pids, err := contend(2)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if len(pids) != 2 {
		t.Fatalf("contend(2) started %d spinners", len(pids))
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, pid := range pids {
		for { // bounded by deadline: a spinner shows CPU time within a tick or two
			used, err := processCPU(pid)
			if err != nil {
				t.Fatalf("spinner %d: %v", pid, err)
			}
			if used > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("spinner %d used no CPU in 20 s", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if grown := machineCPU() - machine; grown <= 0 {
		t.Errorf("the machine's busy time did not grow while spinners ran (%.2f s)", grown)
	}
	stop()
	for _, pid := range pids {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("spinner %d still exists after stop (%v)", pid, err)
		}
	}
}

// TestSampleOthersBusy checks the contention column's arithmetic: the
// rest of the machine's CPU seconds over the run's wall seconds.
func TestSampleOthersBusy(t *testing.T) {
	s := sample{wall: 4, cpu: 1, engine: 2, others: 3}
	if got := s.othersBusy(); got != 0.75 {
		t.Errorf("othersBusy = %v, want 0.75", got)
	}
}
