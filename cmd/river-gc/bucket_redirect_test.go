//go:build linux

package main

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// elsewhere is a server no run was configured with: it counts what
// reaches it and answers every request as an empty success.
func elsewhere(t *testing.T) (host string, got *atomic.Int64) {
	t.Helper()
	got = new(atomic.Int64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), got
}

// redirectTo answers a request with a 307 to the same path and query on
// host: what a misconfigured or hostile endpoint sends.
func redirectTo(host string) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.Header().Set("Location", "http://"+host+r.URL.RequestURI())
		w.WriteHeader(http.StatusTemporaryRedirect)
	}
}

// TestBucketFollowsNoRedirect (SPEC B8 2): a 307 from the endpoint is
// followed by no request, signed or not: answered to the first request,
// the run is a config error naming the Location's host; answered to the
// run's DeleteObjects only, the objects are kept, the run says why
// (exit 1) and its journal stays. The host redirected to sees nothing.
func TestBucketFollowsNoRedirect(t *testing.T) {
	t.Parallel()
	srv := s3test.Fake(t)
	t.Run("every-request", func(t *testing.T) {
		host, got := elsewhere(t)
		name := srv.Bucket(t, false)
		upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a"})
		p := s3test.Proxy(t, srv, s3test.Reply("", redirectTo(host)))
		for _, args := range [][]string{{"--lang", "en"}, {"--force", "--json", "--lang", "en"}} {
			_, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), append(args, "--root", "s3://"+name+"/r", "--now", future)...)
			if code != 2 || !strings.Contains(string(stderr), "redirects to \""+host+"\"") {
				t.Errorf("%v: exit %d, want 2 naming %s\n%s", args, code, host, stderr)
			}
		}
		if n := got.Load(); n != 0 {
			t.Errorf("%d requests reached the host redirected to", n)
		}
	})
	t.Run("delete-batch", func(t *testing.T) {
		host, got := elsewhere(t)
		name := srv.Bucket(t, false)
		upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a", ".river/tmp/b.tmp": "b"})
		p := s3test.Proxy(t, srv, s3test.Reply(s3test.KindDeleteBatch, redirectTo(host)).If(func(r s3test.Request) bool {
			return slices.Contains(r.Keys, "r/.river/tmp/a.tmp")
		}))
		out, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), "--force", "--json", "--root", "s3://"+name+"/r", "--now", future)
		if code != 1 || len(readRecord(t, out).Removed) != 0 {
			t.Errorf("exit %d, removed %v; want 1 and nothing removed\n%s", code, readRecord(t, out).Removed, stderr)
		}
		if left := keysIn(t, srv, name, "r/.river/tmp/"); len(left) != 2 {
			t.Errorf("left %q, want both objects kept", left)
		}
		if j := keysIn(t, srv, name, "r/.river/gc-journal/"); len(j) == 0 {
			t.Errorf("the journal is gone; a request whose outcome is unknown keeps it")
		}
		if n := got.Load(); n != 0 {
			t.Errorf("%d requests reached the host redirected to", n)
		}
	})
}
