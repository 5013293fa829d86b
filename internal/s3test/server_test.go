package s3test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/plangate-gc/plangate-gc/internal/longtest"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		orphanChild()
		return
	}
	os.Exit(Main(m))
}

// skipRecorder is a testing.TB whose Skip records the message and ends
// the goroutine, so a test can read what Start says when it skips.
type skipRecorder struct {
	testing.TB
	msg string
}

func (r *skipRecorder) Helper() {}
func (r *skipRecorder) Skip(args ...any) {
	r.msg = fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *skipRecorder) Skipf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestStartSkipsSayingHowToEnable(t *testing.T) {
	t.Setenv(EnvWeed, "")
	t.Setenv(longtest.Env, "")
	r := &skipRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Start(r)
		r.msg = "(Start returned without skipping)"
	}()
	<-done
	for _, want := range []string{"PLANGATE_GC_LONG=1", "PLANGATE_GC_WEED=/path/to/weed", "S3 engine"} {
		if !strings.Contains(r.msg, want) {
			t.Errorf("skip message %q does not name %q", r.msg, want)
		}
	}
}

func TestPinnedVersion(t *testing.T) {
	b, err := os.ReadFile("../tools/seaweedfs/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if got := pinnedVersion(b); !strings.HasPrefix(got, "v0.0.0-2026") {
		t.Errorf("pinnedVersion(internal/tools/seaweedfs/go.mod) = %q, want the pinned pseudo-version", got)
	}
	for in, want := range map[string]string{
		"require github.com/seaweedfs/seaweedfs v1.2.3\n":         "v1.2.3",
		"require (\n\tgithub.com/seaweedfs/seaweedfs v4.5.6\n)\n": "v4.5.6",
		"require github.com/seaweedfs/seaweedfs-extra v1.0.0\n":   "",
		"replace github.com/tyler-smith/go-bip39 => x v1.0.0\n":   "",
		"// github.com/seaweedfs/seaweedfs is pinned elsewhere\n": "",
	} {
		if got := pinnedVersion([]byte(in)); got != want {
			t.Errorf("pinnedVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEngineStoresAndLists(t *testing.T) {
	s := Start(t)
	c := s.Client()
	bucket := s.Bucket(t, false)
	ctx := context.Background()
	for _, k := range []string{"a/1.json", "a/2.json", "b/3.json"} {
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: aws.String(k), Body: strings.NewReader(k)}); err != nil {
			t.Fatalf("put %s: %v", k, err)
		}
	}
	out, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: aws.String("a/")})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range out.Contents {
		keys = append(keys, aws.ToString(o.Key))
	}
	if strings.Join(keys, ",") != "a/1.json,a/2.json" {
		t.Errorf("list a/ = %v", keys)
	}
	got, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: aws.String("b/3.json")})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(got.Body)
	got.Body.Close()
	if string(body) != "b/3.json" {
		t.Errorf("get b/3.json = %q", body)
	}
	if !strings.HasPrefix(s.Endpoint, "http://127.0.0.1:") {
		t.Errorf("endpoint %s is not loopback", s.Endpoint)
	}
}

// TestEngineListensOnLoopbackOnly reads the kernel's socket table: every
// TCP socket weed listens on is bound to 127.0.0.1.
func TestEngineListensOnLoopbackOnly(t *testing.T) {
	Start(t)
	pid := shared.Pid
	inodes := socketInodes(t, pid)
	if len(inodes) == 0 {
		t.Fatalf("weed (pid %d) has no sockets", pid)
	}
	listening := 0
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fld := strings.Fields(sc.Text())
			if len(fld) < 10 || fld[3] != "0A" || !inodes[fld[9]] { // 0A: LISTEN
				continue
			}
			listening++
			if local := fld[1]; !strings.HasPrefix(local, "0100007F:") {
				t.Errorf("weed listens on %s (%s), not 127.0.0.1", local, table)
			}
		}
		f.Close()
	}
	if listening < 4 {
		t.Errorf("weed listens on %d sockets; want at least S3, filer, volume and master", listening)
	}
}

// socketInodes returns the inodes of pid's sockets.
func socketInodes(t *testing.T, pid int) map[string]bool {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	inodes := map[string]bool{}
	for _, e := range ents {
		link, err := os.Readlink(dir + "/" + e.Name())
		if ino, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	return inodes
}

// TestStopLeavesNothing launches an engine of its own and stops it: no
// process of its group and no data directory remain.
func TestStopLeavesNothing(t *testing.T) {
	Start(t)
	e, err := Launch(weedPath(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Stop(); err != nil {
		t.Fatal(err)
	}
	if left := GroupMembers(e.Pid); len(left) > 0 {
		t.Errorf("processes left in weed's group: %v", left)
	}
	if _, err := os.Stat(e.Dir); !os.IsNotExist(err) {
		t.Errorf("data directory %s still there (%v)", e.Dir, err)
	}
}

const childEnv = "PLANGATE_GC_S3TEST_ORPHAN_CHILD"

// orphanChild launches an engine, prints weed's pid and exits without
// stopping it, as a crashed test binary would.
func orphanChild() {
	e, err := Launch(os.Getenv(childEnv), os.Getenv("PLANGATE_GC_S3TEST_ORPHAN_DIR"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("pid", e.Pid)
	os.Exit(0)
}

// TestNoOrphanWhenTheTestBinaryDies runs a child test binary that starts
// weed and exits without stopping it: weed must be gone soon after, and
// the next launch removes the dead child's data directory.
func TestNoOrphanWhenTheTestBinaryDies(t *testing.T) {
	Start(t)
	parent := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+weedPath(t), "PLANGATE_GC_S3TEST_ORPHAN_DIR="+parent)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	pidText, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "pid ")
	pid, perr := strconv.Atoi(pidText)
	if !ok || perr != nil {
		t.Fatalf("child said %q", out)
	}
	gone := false
	for i := 0; i < 200 && !gone; i++ { // bounded: 10 s
		gone = len(GroupMembers(pid)) == 0
		if !gone {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if !gone {
		syscall.Kill(-pid, syscall.SIGKILL)
		t.Fatalf("weed (pid %d) outlived the test binary that started it", pid)
	}
	ents, _ := os.ReadDir(parent)
	if len(ents) != 1 {
		t.Fatalf("want the dead child's data directory in %s, found %d entries", parent, len(ents))
	}
	removeStale(parent)
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("removeStale left %s", ents[0].Name())
	}
}

// weedPath is the binary the shared engine runs.
func weedPath(t *testing.T) string {
	if bin := os.Getenv(EnvWeed); bin != "" {
		return bin
	}
	repo, err := FindRepo()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := BuildWeed(repo)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestBuildWeed builds (or finds cached) the pinned weed and runs it;
// .ci/run runs it alone first, so the cold build is not timed against
// the suite's go test timeout.
func TestBuildWeed(t *testing.T) {
	longtest.Require(t, "building the pinned S3 engine (SeaweedFS)")
	repo, err := FindRepo()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := BuildWeed(repo)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "version") {
		t.Fatalf("%s version: %v\n%s", bin, err, out)
	}
	again, err := BuildWeed(repo)
	if err != nil || again != bin {
		t.Errorf("second BuildWeed = %q, %v; want the cached %q", again, err, bin)
	}
}
