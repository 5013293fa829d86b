// Package s3test gives tests a real S3 engine on loopback: SeaweedFS
// (Apache-2.0), pinned in internal/tools/seaweedfs/go.mod with Go's tool
// directive, built by the tests once into a cache outside the tree and
// started as `weed server -s3` on free 127.0.0.1 ports in a temporary
// directory. It also holds a fault proxy (Proxy) that stands between a
// client and the engine and delays, drops, fails or rewrites requests.
//
// The engine tests are long: they run when PLANGATE_GC_LONG=1 (.ci/run
// sets it; the first run builds weed, a few minutes on two cores) or when
// PLANGATE_GC_WEED names a prebuilt weed binary; otherwise Start skips,
// saying so. The package is for tests and benchmarks only: nothing river
// gc ships imports it.
//
// Lifetime: Start launches one engine per test process, on first use,
// shared by every test of the process (each test takes a fresh bucket
// with Bucket). It ends with the process: weed receives SIGKILL when the
// test binary exits (whatever way it exits), and its data directory is
// removed by the next launch in the same temporary directory. A package
// that wants it stopped and removed before the process ends calls
// os.Exit(s3test.Main(m)) from its TestMain.
package s3test

import (
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
)

// Server is a running S3 engine: its plain-http loopback endpoint, its
// region and the one key pair it accepts (an administrator of every
// bucket).
type Server struct {
	Endpoint, Region, AccessKey, SecretKey string
}

// Env returns the environment that points the AWS SDK's standard chain
// (and so river gc, rclone's env_auth and the aws CLI) at s: the S3
// endpoint, the region and the key pair, with the EC2 metadata lookup
// off so a missing credential fails at once instead of probing the
// network. Append it to os.Environ(); path-style addressing is the
// client's business (a loopback IP cannot carry a bucket name anyway).
func (s *Server) Env() []string {
	return []string{
		"AWS_ENDPOINT_URL_S3=" + s.Endpoint,
		"AWS_REGION=" + s.Region,
		"AWS_ACCESS_KEY_ID=" + s.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
		"AWS_EC2_METADATA_DISABLED=true",
	}
}

var (
	shared    *Engine
	sharedErr error
	sharedMu  sync.Mutex
)

// Start returns the process's running engine, launching it on first use
// (a failed launch fails t, and every later caller, with weed's log). It
// skips t, saying how to enable it, unless PLANGATE_GC_WEED names a weed
// binary or PLANGATE_GC_LONG=1 (then weed is built, once, from the pin).
func Start(t testing.TB) *Server {
	t.Helper()
	bin := os.Getenv(EnvWeed)
	if bin == "" {
		longtest.Require(t, "tests on a real S3 engine (SeaweedFS; or set "+EnvWeed+"=/path/to/weed)")
		if _, err := exec.LookPath("go"); err != nil {
			t.Skip("tests on a real S3 engine: the go command is needed to build weed")
		}
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared == nil && sharedErr == nil {
		shared, sharedErr = launchShared(bin)
	}
	if sharedErr != nil {
		t.Fatalf("the S3 engine: %v", sharedErr)
	}
	if shared.Exited() {
		t.Fatalf("the S3 engine (weed, pid %d) has exited:\n%s", shared.Pid, shared.Log())
	}
	return &shared.Server
}

// launchShared builds weed when no binary is given and launches it.
func launchShared(bin string) (*Engine, error) {
	if bin == "" {
		repo, err := FindRepo()
		if err != nil {
			return nil, err
		}
		if bin, err = BuildWeed(repo); err != nil {
			return nil, err
		}
	}
	return Launch(bin, "")
}

// Main runs the package's tests and then stops the shared engine (if one
// was started) and removes its data directory: call os.Exit(Main(m))
// from TestMain. Without it the engine still ends with the process.
func Main(m *testing.M) int {
	code := m.Run()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			os.Stderr.WriteString("s3test: stopping the engine: " + err.Error() + "\n")
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}
