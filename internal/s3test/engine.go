package s3test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Engine is a running weed server (master, volume, filer and S3 gateway
// in one process) listening on 127.0.0.1 only. Launch starts it, Stop
// ends it with its whole process group.
type Engine struct {
	Server
	// Dir is the engine's data directory (removed by Stop).
	Dir string
	// Pid is the weed process's id (also its process group's).
	Pid int

	log     *capped
	done    chan struct{}
	waitErr error
	stopped sync.Once
	stopErr error
}

// readyTimeout bounds how long Launch waits for the engine to accept an
// object (weed needs its volume server registered first).
const readyTimeout = 90 * time.Second

// Launch starts weed bin on free loopback ports in a new data directory
// under parent (os.TempDir() if empty) and waits, in a bounded loop,
// until its S3 gateway stores and deletes an object. Every listener weed
// opens is named by a flag: the S3, filer, volume and master ports (HTTP
// and gRPC) on 127.0.0.1, the Iceberg and Lance catalogs off, no
// telemetry, no debug port, local sockets inside the data directory.
//
// weed is the leader of its own process group and gets SIGKILL when the
// thread that started it ends (Linux's parent-death signal, from a thread
// locked for the process's life), so a test binary that dies without
// calling Stop leaves no server behind; its data directory is removed by
// the next Launch that finds its owner gone.
func Launch(bin, parent string) (*Engine, error) {
	if parent == "" {
		parent = os.TempDir()
	}
	removeStale(parent)
	var last error
	for attempt := 0; attempt < 3; attempt++ { // a port taken between probe and bind
		e, err := launchOnce(bin, parent)
		if err == nil {
			return e, nil
		}
		last = err
		if !strings.Contains(err.Error(), "address already in use") {
			break
		}
	}
	return nil, last
}

// launchOnce is one attempt of Launch.
func launchOnce(bin, parent string) (*Engine, error) {
	dir, err := os.MkdirTemp(parent, fmt.Sprintf("plangate-gc-weed-%d-", os.Getpid()))
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(8)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	e := &Engine{
		Server: Server{
			Endpoint:  "http://127.0.0.1:" + strconv.Itoa(ports[0]),
			Region:    "us-east-1",
			AccessKey: "plangate-gc-test",
			SecretKey: randomHex(20),
		},
		Dir:  dir,
		log:  &capped{max: 64 << 10},
		done: make(chan struct{}),
	}
	if err := e.writeConfig(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	args := weedArgs(dir, ports)
	if err := e.start(bin, args); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	if err := e.waitReady(ctx); err != nil {
		e.Stop()
		return nil, fmt.Errorf("weed server did not become ready: %w\n--- weed log (tail) ---\n%s", err, e.log.tail())
	}
	return e, nil
}

// weedArgs are the flags of `weed server`: every port set, loopback only.
func weedArgs(dir string, p []int) []string {
	a := func(name string, v any) string { return fmt.Sprintf("-%s=%v", name, v) }
	return []string{
		"server",
		a("ip", "127.0.0.1"), a("ip.bind", "127.0.0.1"),
		a("dir", filepath.Join(dir, "data")),
		a("master.dir", filepath.Join(dir, "master")),
		a("master.port", p[1]), a("master.port.grpc", p[2]),
		a("master.telemetry", false),
		a("master.volumeSizeLimitMB", 64),
		a("volume.port", p[3]), a("volume.port.grpc", p[4]),
		a("volume.max", 0),
		a("filer", true), a("filer.port", p[5]), a("filer.port.grpc", p[6]),
		a("filer.localSocket", filepath.Join(dir, "filer.sock")),
		a("s3", true), a("s3.port", p[0]), a("s3.port.grpc", p[7]),
		a("s3.port.iceberg", 0), a("s3.port.lance", 0),
		a("s3.config", filepath.Join(dir, "s3.json")),
		a("s3.localSocket", filepath.Join(dir, "s3.sock")),
		a("s3.allowDeleteBucketNotEmpty", true),
		a("metricsPort", 0),
	}
}

// writeConfig writes the S3 identity (one admin key pair) and a
// master.toml (read from weed's working directory) that grows one volume
// per bucket, not seven, so hundreds of test buckets fit.
func (e *Engine) writeConfig() error {
	for _, sub := range []string{"data", "master"} {
		if err := os.Mkdir(filepath.Join(e.Dir, sub), 0o755); err != nil {
			return err
		}
	}
	ident := map[string]any{"identities": []any{map[string]any{
		"name":        "admin",
		"credentials": []any{map[string]string{"accessKey": e.AccessKey, "secretKey": e.SecretKey}},
		"actions":     []string{"Admin", "Read", "Write", "List", "Tagging"},
	}}}
	b, err := json.Marshal(ident)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(e.Dir, "s3.json"), b, 0o600); err != nil {
		return err
	}
	toml := "[master.volume_growth]\ncopy_1 = 1\ncopy_other = 1\nallocation_deferral = \"0s\"\n"
	return os.WriteFile(filepath.Join(e.Dir, "master.toml"), []byte(toml), 0o644)
}

// start runs weed from a goroutine locked to its OS thread for as long
// as weed runs, so the parent-death signal fires only when the process
// (not some runtime thread) ends.
func (e *Engine) start(bin string, args []string) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with weed
		cmd := exec.Command(bin, args...)
		cmd.Dir = e.Dir
		cmd.Env = append(os.Environ(), "WEED_MASTER_VOLUME_GROWTH_COPY_1=1")
		cmd.Stdout, cmd.Stderr = e.log, e.log
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			started <- fmt.Errorf("starting %s: %w", bin, err)
			return
		}
		e.Pid = cmd.Process.Pid
		started <- nil
		e.waitErr = cmd.Wait()
		close(e.done)
	}()
	return <-started
}

// Stop kills weed's process group, waits (bounded) for weed to end,
// checks that no process of the group is left and removes the data
// directory. It is safe to call more than once.
func (e *Engine) Stop() error {
	e.stopped.Do(func() {
		syscall.Kill(-e.Pid, syscall.SIGKILL)
		select {
		case <-e.done:
		case <-time.After(30 * time.Second):
			e.stopErr = fmt.Errorf("weed (pid %d) still running 30 s after SIGKILL", e.Pid)
			return
		}
		for i := 0; i < 100; i++ { // bounded: the kernel reaps the group's members
			left := GroupMembers(e.Pid)
			if len(left) == 0 {
				break
			}
			if i == 99 {
				e.stopErr = fmt.Errorf("processes of weed's group %d left after SIGKILL: %v", e.Pid, left)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		e.stopErr = os.RemoveAll(e.Dir)
	})
	return e.stopErr
}

// Exited reports whether weed has ended (on its own or by Stop).
func (e *Engine) Exited() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// Log returns the tail of weed's output, for failure messages.
func (e *Engine) Log() string { return e.log.tail() }

// GroupMembers returns the pids of live processes in process group pgid
// (read from /proc; zombies count as gone).
func GroupMembers(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, d := range ents {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// removeStale removes data directories left by test processes that have
// ended (named plangate-gc-weed-<pid>-…, the pid no longer alive).
func removeStale(parent string) {
	ents, _ := os.ReadDir(parent)
	for _, d := range ents {
		rest, ok := strings.CutPrefix(d.Name(), "plangate-gc-weed-")
		if !ok || !d.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(filepath.Join(parent, d.Name()))
		}
	}
}

// freePorts returns n distinct free TCP ports on 127.0.0.1 (held open
// together while probing, so they are distinct).
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for len(ports) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// randomHex returns 2n random hex digits.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// capped keeps the last max bytes written to it (weed's log).
type capped struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = append(c.buf, p...)
	if len(c.buf) > 2*c.max {
		c.buf = append([]byte(nil), c.buf[len(c.buf)-c.max:]...)
	}
	return len(p), nil
}

func (c *capped) tail() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(tail(c.buf, c.max))
}
