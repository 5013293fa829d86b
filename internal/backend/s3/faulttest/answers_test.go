package faulttest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

// batchAnswer is a DeleteObjects answer as the liar rewrites it.
type batchAnswer struct {
	XMLName xml.Name `xml:"DeleteResult"`
	Deleted []struct {
		Key string `xml:"Key"`
	} `xml:"Deleted"`
	Error []struct {
		Key     string `xml:"Key"`
		Code    string `xml:"Code"`
		Message string `xml:"Message"`
	} `xml:"Error"`
}

// afterTheEngine is a lie told about the old files' DeleteObjects
// requests once the engine has acted on them: the engine's own answer
// (decoded) goes in, what the client gets comes out.
type afterTheEngine func(status int, h http.Header, answer []byte, real batchAnswer) (int, http.Header, []byte)

// lieAfter forwards every DeleteObjects naming an old file to the engine
// (which deletes), then answers with lie; other requests pass untouched.
func lieAfter(lie afterTheEngine) func(*liar, *http.Request, []byte) (int, http.Header, []byte, bool) {
	return func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool) {
		if !isBatchDelete(r) || !bytes.Contains(body, []byte("<Key>"+prefix+".river/tmp/")) {
			return 0, nil, nil, false
		}
		status, h, answer, err := l.forward(r, body)
		if err != nil {
			return http.StatusBadGateway, nil, []byte(err.Error()), true
		}
		var real batchAnswer
		xml.Unmarshal(answer, &real)
		status, h, answer = lie(status, h, answer, real)
		return status, h, answer, true
	}
}

// encode writes a DeleteObjects answer.
func encode(a batchAnswer) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	xml.NewEncoder(&b).Encode(a)
	return b.Bytes()
}

// TestLyingDeleteAnswersLoseNoRecord (SPEC H4, H6): the
// engine deletes the old files' batch, and the answer river-gc gets is a
// lie — a 500 or SlowDown on every attempt, a body cut mid-XML, a
// Content-Length beyond the body, an answer that leaves out half the keys,
// names each key twice, names keys in another case or URL-encoded, or
// names keys never asked for. However river-gc reads it, the engine
// deleted no key twice, nothing the policy keeps, and this run's own
// record names every key the engine deleted (removed[]), with nothing
// left for the next run to find.
func TestLyingDeleteAnswersLoseNoRecord(t *testing.T) {
	half := func(a batchAnswer) batchAnswer { a.Deleted = a.Deleted[:len(a.Deleted)/2]; return a }
	respell := func(f func(string) string) func(batchAnswer) batchAnswer {
		return func(a batchAnswer) batchAnswer {
			for i := range a.Deleted {
				a.Deleted[i].Key = f(a.Deleted[i].Key)
			}
			return a
		}
	}
	rewrite := func(f func(batchAnswer) batchAnswer) afterTheEngine {
		return func(status int, h http.Header, _ []byte, real batchAnswer) (int, http.Header, []byte) {
			return status, h, encode(f(real))
		}
	}
	for _, tc := range []struct {
		name string
		lie  afterTheEngine
	}{
		{"500 on every attempt", func(int, http.Header, []byte, batchAnswer) (int, http.Header, []byte) {
			return http.StatusInternalServerError, xmlHeader(), []byte(xml.Header + `<Error><Code>InternalError</Code><Message>after the fact</Message></Error>`)
		}},
		{"500 once, then the truth", onceThen(func(int, http.Header, []byte, batchAnswer) (int, http.Header, []byte) {
			return http.StatusInternalServerError, xmlHeader(), []byte(xml.Header + `<Error><Code>InternalError</Code><Message>after the fact</Message></Error>`)
		})},
		{"SlowDown on every attempt", func(int, http.Header, []byte, batchAnswer) (int, http.Header, []byte) {
			return http.StatusServiceUnavailable, xmlHeader(), []byte(xml.Header + `<Error><Code>SlowDown</Code><Message>after the fact</Message></Error>`)
		}},
		{"body cut mid-XML", func(status int, h http.Header, answer []byte, _ batchAnswer) (int, http.Header, []byte) {
			return status, h, answer[:len(answer)/2]
		}},
		{"Content-Length beyond the body", func(status int, h http.Header, answer []byte, _ batchAnswer) (int, http.Header, []byte) {
			h = h.Clone()
			h.Set("Content-Length", fmt.Sprint(len(answer)+100))
			return status, h, answer
		}},
		{"half the keys left out", rewrite(half)},
		{"every key twice", rewrite(func(a batchAnswer) batchAnswer { a.Deleted = append(a.Deleted, a.Deleted...); return a })},
		{"keys in upper case", rewrite(respell(strings.ToUpper))},
		{"keys URL-encoded", rewrite(respell(func(k string) string { return strings.ReplaceAll(k, "/", "%2F") }))},
		{"keys never asked for", rewrite(respell(func(k string) string { return k + ".other" }))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			l := newLiar(t, f.srv.Endpoint, lieAfter(tc.lie))
			r, stderr, _ := f.runBounded(t, l.URL, f.gcArgs("--force")...)
			deleted := l.treeDeleted(t, f)
			if len(deleted) == 0 {
				t.Fatalf("the engine deleted nothing: the case tests nothing\n%.2000s", stderr)
			}
			for _, k := range deleted {
				if !slices.Contains(r.removed(), k) {
					t.Errorf("the engine deleted %s and removed[] does not name it (errors %+v)", k, r.Errors)
				}
			}
			next, _, _ := f.gc(t, f.srv.Endpoint, f.gcArgs("--dry-run")...)
			if next.Interrupted != nil {
				t.Errorf("the next run still finds a journal: %+v", next.Interrupted)
			}
		})
	}
}

// treeDeleted lists (sorted, root-relative) the tree keys the engine
// really deleted, and fails t for a key deleted twice or one the policy
// keeps.
func (l *liar) treeDeleted(t *testing.T, f *fixture) []string {
	t.Helper()
	deleted := deletedOnce(t, l.realDeleted())
	for _, rel := range deleted {
		if !slices.Contains(old(f.tree), rel) {
			t.Errorf("the engine deleted %s, which the policy keeps", rel)
		}
	}
	return deleted
}

// TestEchoedCredentialsNeverPrinted (SPEC H1): a server (or
// a proxy before it) whose per-key DeleteObjects errors echo what the
// client sent — its access key id — never gets it printed: not in
// errors[], the summary or stderr. The server here deletes nothing and
// fails every key.
func TestEchoedCredentialsNeverPrinted(t *testing.T) {
	f := newFixture(t)
	l := newLiar(t, f.srv.Endpoint, func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool) {
		if !isBatchDelete(r) || !bytes.Contains(body, []byte("<Key>"+prefix+".river/tmp/")) {
			return 0, nil, nil, false
		}
		var req struct {
			Object []struct{ Key string }
		}
		xml.Unmarshal(body, &req)
		var a batchAnswer
		for _, o := range req.Object {
			a.Error = append(a.Error, struct {
				Key     string `xml:"Key"`
				Code    string `xml:"Code"`
				Message string `xml:"Message"`
			}{o.Key, "InternalError", "request by " + f.srv.AccessKey + " failed"})
		}
		return http.StatusOK, xmlHeader(), encode(a), true
	})
	cmd, stdout, stderr := f.command(l.URL, f.gcArgs("--force")...)
	cmd.Run() //nolint:errcheck // the exit code is not what is tested
	if !strings.Contains(stderr.String(), "InternalError") {
		t.Fatalf("the per-key errors were not reported: the case tests nothing\n%s", stderr)
	}
	for what, b := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
		if strings.Contains(b, f.srv.AccessKey) {
			t.Errorf("the access key id is in %s:\n%.2000s", what, b)
		}
	}
}

// onceThen tells lie to the first request it sees and forwards the
// engine's own answer to the others (the SDK's retry then meets keys
// the first attempt deleted).
func onceThen(lie afterTheEngine) afterTheEngine {
	var once sync.Once
	return func(status int, h http.Header, answer []byte, real batchAnswer) (int, http.Header, []byte) {
		once.Do(func() { status, h, answer = lie(status, h, answer, real) })
		return status, h, answer
	}
}

// TestCutListingJudgesNothingOfItsPrefix (SPEC H6): every
// answer to a listing of the scratch scope is cut mid-XML (the engine
// answered whole; the client gets half). Nothing of that prefix is
// judged or deleted (errors[] names it, exit 1); the other scopes are
// cleaned as usual.
func TestCutListingJudgesNothingOfItsPrefix(t *testing.T) {
	f := newFixture(t)
	l := newLiar(t, f.srv.Endpoint, func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool) {
		if !isList(r) || !strings.HasPrefix(r.URL.Query().Get("prefix"), prefix+".river/tmp/") {
			return 0, nil, nil, false
		}
		status, h, answer, err := l.forward(r, body)
		if err != nil {
			return http.StatusBadGateway, nil, []byte(err.Error()), true
		}
		return status, h, answer[:len(answer)/2], true
	})
	r, stderr, code := f.runBounded(t, l.URL, f.gcArgs("--force")...)
	if code != 1 || len(r.Errors) == 0 || !strings.HasPrefix(r.Errors[0].Path, ".river/tmp") {
		t.Errorf("exit %d, errors %+v; want 1 and the scratch scope named\n%.2000s", code, r.Errors, stderr)
	}
	var want []string
	for _, k := range old(f.tree) {
		if !strings.HasPrefix(k, ".river/tmp/") {
			want = append(want, k)
		}
	}
	if got := r.removed(); !slices.Equal(got, want) {
		t.Errorf("removed[] = %v, want only %v", got, want)
	}
	if got := l.treeDeleted(t, f); !slices.Equal(got, want) {
		t.Errorf("the engine deleted %v, want only %v", got, want)
	}
}
