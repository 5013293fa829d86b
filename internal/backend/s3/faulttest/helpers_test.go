package faulttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
	"github.com/plangate-gc/plangate-gc/internal/testbin"
)

// -update is accepted so that `go test ./... -update` runs every package;
// this one has no goldens.
var _ = flag.Bool("update", false, "accepted; this package has no goldens")

func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }

// binary returns river-gc, one build shared by every test process
// (internal/testbin; only when a test gets as far as an engine, so
// skipped runs build nothing).
func binary(t *testing.T) string {
	t.Helper()
	return testbin.Build(t, testbin.RiverGC)
}

// prefix is the repository's root inside each test's bucket.
const prefix = "org/repo/"

// tree is what each test uploads: old scratch files (judged by
// LastModified, removed at now's --now), old review artifacts (judged by
// their timestamp, removed) and recent ones (kept).
func tree() map[string]string {
	t := map[string]string{}
	for i := range 24 {
		t[fmt.Sprintf(".river/tmp/job-%d/part-%02d.tmp", i%3, i)] = fmt.Sprintf("scratch %d", i)
	}
	for i := range 6 {
		t[fmt.Sprintf("artifacts/review-artifact-old-%d.json", i)] = `{"timestamp":"2024-01-01T00:00:00Z"}`
	}
	recent := time.Now().UTC().Add(40 * 24 * time.Hour).Format(time.RFC3339)
	for i := range 3 {
		t[fmt.Sprintf("artifacts/review-artifact-new-%d.json", i)] = `{"timestamp":"` + recent + `"}`
	}
	return t
}

// old lists the keys (root-relative) of tree that a run removes.
func old(tr map[string]string) []string {
	var ks []string
	for k := range tr {
		if !strings.Contains(k, "-new-") {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// fixture is one test's bucket with the tree uploaded, and its proxy.
type fixture struct {
	srv    *s3test.Server
	bucket string
	tree   map[string]string
	etags  map[string]string
	bin    string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{srv: s3test.Start(t), tree: tree(), etags: map[string]string{}}
	f.bin = binary(t)
	f.bucket = f.srv.Bucket(t, false)
	c := f.srv.Client()
	for rel, body := range f.tree {
		out, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &f.bucket, Key: aws.String(prefix + rel), Body: strings.NewReader(body)})
		if err != nil {
			t.Fatal(err)
		}
		f.etags[rel] = aws.ToString(out.ETag)
	}
	return f
}

// record is what the tests read of river-gc's --json output.
type record struct {
	Removed []struct{ Path string }
	Errors  []struct{ Path, Message string }
	// Interrupted is what a killed run deleted (SPEC B4, H4).
	Interrupted *struct {
		Journals []string
		Removed  []string
		Finished bool
	}
}

// removed lists the record's removed paths, sorted.
func (r record) removed() []string {
	var ps []string
	for _, x := range r.Removed {
		ps = append(ps, x.Path)
	}
	slices.Sort(ps)
	return ps
}

// now pins river-gc's clock 61 days ahead: the scratch files (uploaded
// now) are past the 60-day retention, recent artifacts are not.
var now = time.Now().UTC().Add(61 * 24 * time.Hour).Format(time.RFC3339)

// gcArgs are the flags of every run (plus the mode).
func (f *fixture) gcArgs(mode ...string) []string {
	return append(mode, "--json", "--root", "s3://"+f.bucket+"/"+strings.TrimSuffix(prefix, "/"), "--now", now,
		"--retention-days", "60", "--max-entries", "1000000", "--max-size-mb", "100000")
}

// command is river-gc with args against endpoint (the proxy's URL), with
// this machine's environment (AWS_CA_BUNDLE included).
func (f *fixture) command(endpoint string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := exec.Command(f.bin, args...)
	cmd.Env = append(append(os.Environ(), f.srv.Env()...), "AWS_ENDPOINT_URL_S3="+endpoint)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return cmd, &stdout, &stderr
}

// gc runs river-gc to its end and returns its record (zero if stdout is
// not one), stderr and exit code.
func (f *fixture) gc(t *testing.T, endpoint string, args ...string) (record, string, int) {
	t.Helper()
	cmd, stdout, stderr := f.command(endpoint, args...)
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(3 * time.Minute): // bounded: a hang is a failure
		cmd.Process.Kill()
		<-done
		t.Fatalf("river-gc %v: still running after 3 minutes\n%s", args, stderr)
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var r record
	json.Unmarshal(stdout.Bytes(), &r) // a config error prints no record
	return r, stderr.String(), code
}

// keys lists the bucket's keys below the root (root-relative), river
// gc's own objects (.river/gc-*) left out.
func (f *fixture) keys(t *testing.T) []string {
	t.Helper()
	var ks []string
	p := s3.NewListObjectsV2Paginator(f.srv.Client(), &s3.ListObjectsV2Input{Bucket: &f.bucket, Prefix: aws.String(prefix)})
	for page := 0; p.HasMorePages() && page < 100; page++ {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out.Contents {
			if k := strings.TrimPrefix(aws.ToString(o.Key), prefix); !ours(k) {
				ks = append(ks, k)
			}
		}
	}
	slices.Sort(ks)
	return ks
}

// ours reports whether a root-relative key is one river gc writes for
// itself: the lock, the journal (.river/gc-*), the canaries (below
// .river/<32 random hex digits>/).
func ours(rel string) bool { return strings.HasPrefix(rel, ".river/gc-") || canaryKey.MatchString(rel) }

// canaryKey matches the keys of a run's canary objects.
var canaryKey = regexp.MustCompile(`^\.river/[0-9a-f]{32}/`)

// engineDeleted lists the tree keys the engine answered "deleted" for,
// root-relative, and fails t for any deleted more than once.
func engineDeleted(t *testing.T, p *s3test.FaultProxy) []string {
	t.Helper()
	return deletedOnce(t, p.Deleted())
}

// deletedOnce lists (sorted, root-relative) the keys of counts (bucket
// keys, how often the engine deleted each), river gc's own left out, and
// fails t for any deleted more than once.
func deletedOnce(t *testing.T, counts map[string]int) []string {
	t.Helper()
	var ks []string
	for k, n := range counts {
		rel := strings.TrimPrefix(k, prefix)
		if ours(rel) {
			continue
		}
		if n > 1 {
			t.Errorf("the engine deleted %s %d times", rel, n)
		}
		ks = append(ks, rel)
	}
	slices.Sort(ks)
	return ks
}

// without returns xs without the elements of drop.
func without(xs []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(xs), func(x string) bool { return slices.Contains(drop, x) })
}

// union returns the sorted union of xs and ys.
func union(xs, ys []string) []string {
	u := append(slices.Clone(xs), ys...)
	slices.Sort(u)
	return slices.Compact(u)
}

// put writes body at the root-relative key directly on the engine and
// returns the new ETag.
func put(t *testing.T, f *fixture, rel, body string) string {
	t.Helper()
	out, err := f.srv.Client().PutObject(context.Background(), &s3.PutObjectInput{Bucket: &f.bucket, Key: aws.String(prefix + rel), Body: strings.NewReader(body)})
	if err != nil {
		t.Error(err)
		return ""
	}
	return aws.ToString(out.ETag)
}

// get reads the root-relative key directly from the engine ("" if none).
func get(t *testing.T, f *fixture, rel string) string {
	t.Helper()
	out, err := f.srv.Client().GetObject(context.Background(), &s3.GetObjectInput{Bucket: &f.bucket, Key: aws.String(prefix + rel)})
	if err != nil {
		return ""
	}
	defer out.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(out.Body)
	return b.String()
}

// keysAll lists every key below the root, river gc's own included.
func (f *fixture) keysAll(t *testing.T) []string {
	t.Helper()
	out, err := f.srv.Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: &f.bucket, Prefix: aws.String(prefix + ".river/gc-")})
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, o := range out.Contents {
		ks = append(ks, strings.TrimPrefix(aws.ToString(o.Key), prefix))
	}
	return ks
}
