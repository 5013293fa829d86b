package s3_test

import (
	"context"
	"os"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/internal/backend/backendtest"
	bucket "github.com/plangate-gc/plangate-gc/internal/backend/s3"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }

// TestSuite runs the shared backend suite over a bucket on the real
// engine, configured only through the SDK's standard environment (with
// this machine's AWS_CA_BUNDLE left as it is, against plain http).
func TestSuite(t *testing.T) {
	srv := s3test.Start(t)
	backendtest.Run(t, func(t *testing.T) backend.Backend {
		return open(t, srv, "s3://"+srv.Bucket(t, false)+"/org/repo")
	})
}

// TestSuiteOnTheFake runs the same suite over s3test's in-memory fake
// server, which the tests of servers that act one way and answer
// another stand behind: it must honour what the engine honours.
func TestSuiteOnTheFake(t *testing.T) {
	srv := s3test.Fake(t)
	backendtest.Run(t, func(t *testing.T) backend.Backend {
		return open(t, srv, "s3://"+srv.Bucket(t, false)+"/org/repo")
	})
}

// open sets the server's environment for t and opens root.
func open(t *testing.T, srv *s3test.Server, root string) *bucket.Bucket {
	t.Helper()
	for _, kv := range srv.Env() {
		k, v, _ := cut(kv)
		t.Setenv(k, v)
	}
	b, err := bucket.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cut(kv string) (string, string, bool) {
	for i := range len(kv) {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return kv, "", false
}

func TestParseRoot(t *testing.T) {
	for _, c := range []struct{ root, bucket, prefix string }{
		{"s3://b", "b", ""}, {"s3://b/", "b", ""}, {"s3://b/org/repo", "b", "org/repo/"}, {"s3://b/org/repo/", "b", "org/repo/"},
		{"s3://", "", "err"}, {"s3:///x", "", "err"}, {"s3://b/a//c", "", "err"}, {"s3://b/../c", "", "err"},
		{"s3://b//org/repo", "", "err"}, {"s3://b/org/repo//", "", "err"}, {"s3://b//", "", "err"}, {"/tmp", "", "err"},
	} {
		b, p, err := bucket.ParseRoot(c.root)
		if c.prefix == "err" {
			if err == nil {
				t.Errorf("ParseRoot(%q) = %q, %q; want an error", c.root, b, p)
			}
			continue
		}
		if err != nil || b != c.bucket || p != c.prefix {
			t.Errorf("ParseRoot(%q) = %q, %q, %v; want %q, %q", c.root, b, p, err, c.bucket, c.prefix)
		}
	}
}
