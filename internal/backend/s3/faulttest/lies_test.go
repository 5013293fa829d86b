package faulttest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nestedRepo adds to f's bucket a nested repository below the scratch
// scope whose old object sorts before its .git marker ('+' < '.'), so a
// listing cut between the two shows the object and hides the marker.
func nestedRepo(t *testing.T, f *fixture) {
	t.Helper()
	for rel, body := range map[string]string{".river/tmp/nested/+old.tmp": "theirs", ".river/tmp/nested/.git": "gitdir: elsewhere"} {
		f.tree[rel] = body
		f.etags[rel] = put(t, f, rel, body)
	}
}

// pagedLie serves every listing in pages of one object from the engine's
// real listing; at page n, cut decides the answer: truncated with or
// without a token, or the same token again.
func pagedLie(cut func(entries []listEntry, n int) (page []listEntry, truncated bool, next string)) func(*liar, *http.Request, []byte) (int, http.Header, []byte, bool) {
	return func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool) {
		if !isList(r) {
			return 0, nil, nil, false
		}
		real, err := l.realPage(r, body)
		if err != nil {
			return http.StatusBadGateway, nil, []byte(err.Error()), true
		}
		page, truncated, next := cut(real.Contents, pageNumber(r))
		if next == internalError {
			return http.StatusInternalServerError, xmlHeader(), []byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>`), true
		}
		return http.StatusOK, xmlHeader(), listAnswer(r, page, truncated, next), true
	}
}

// internalError, as the token a cut returns, answers the page with a
// 500 (every retry too).
const internalError = "!500"

// honestPages is pages of one with tokens liar-1, liar-2, …
func honestPages(entries []listEntry, n int) ([]listEntry, bool, string) {
	if n >= len(entries) {
		return nil, false, ""
	}
	if n+1 < len(entries) {
		return entries[n : n+1], true, "liar-" + strconv.Itoa(n+1)
	}
	return entries[n : n+1], false, ""
}

// runBounded runs river-gc through endpoint and fails t if it is still
// running after a minute (every request loop must be bounded).
func (f *fixture) runBounded(t *testing.T, endpoint string, args ...string) (record, string, int) {
	t.Helper()
	cmd, stdout, stderr := f.command(endpoint, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("river-gc %v: still running after a minute behind a listing that never ends\n%.2000s", args, stderr)
	}
	var r record
	json.Unmarshal(stdout.Bytes(), &r) // a config error prints no record
	return r, stderr.String(), cmd.ProcessState.ExitCode()
}

// TestHonestPagesOfOneAreTheEngine: the liar's own paging, told
// truthfully, gives the run the engine gives (the proxy is sound).
func TestHonestPagesOfOneAreTheEngine(t *testing.T) {
	f := newFixture(t)
	nestedRepo(t, f)
	l := newLiar(t, f.srv.Endpoint, pagedLie(honestPages))
	paged, _, code := f.runBounded(t, l.URL, f.gcArgs("--dry-run")...)
	direct, _, code2 := f.runBounded(t, f.srv.Endpoint, f.gcArgs("--dry-run")...)
	if code != 0 || code2 != 0 || !slices.Equal(paged.removed(), direct.removed()) || len(direct.Removed) == 0 {
		t.Errorf("paged by the liar (exit %d) %v\ndirect (exit %d) %v", code, paged.removed(), code2, direct.removed())
	}
	if slices.Contains(direct.removed(), ".river/tmp/nested/+old.tmp") {
		t.Error("the nested repository's object is a candidate")
	}
}

// TestListingCutShortDeletesNothing: a server that answers "truncated"
// without a continuation token, or with the token it was sent, or with
// keys out of order, is lying about the listing. river gc must not judge
// the part it saw as the whole (an unseen .git marker would leave a
// nested repository unprotected): the run ends bounded, with an error in
// errors[], and deletes nothing of that scope.
func TestListingCutShortDeletesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		cut  func([]listEntry, int) ([]listEntry, bool, string)
	}{
		{"truncated without a token before the .git marker", func(es []listEntry, n int) ([]listEntry, bool, string) {
			page, trunc, next := honestPages(es, n)
			if trunc && n+1 < len(es) && strings.HasSuffix(es[n+1].Key, "/.git") {
				return page, true, ""
			}
			return page, trunc, next
		}},
		{"a 500 for every try of the page with the .git marker", func(es []listEntry, n int) ([]listEntry, bool, string) {
			if n < len(es) && strings.HasSuffix(es[n].Key, "/.git") {
				return nil, false, internalError
			}
			return honestPages(es, n)
		}},
		{"keys out of order", func(es []listEntry, n int) ([]listEntry, bool, string) {
			page, trunc, next := honestPages(es, n)
			if n == 1 {
				return es[0:1], trunc, next
			}
			return page, trunc, next
		}},
		{"the same token for ever", func(es []listEntry, n int) ([]listEntry, bool, string) {
			page, trunc, _ := honestPages(es, 0)
			return page, trunc, "liar-1"
		}},
		{"a new token for ever, the same keys", func(es []listEntry, n int) ([]listEntry, bool, string) {
			page, trunc, _ := honestPages(es, 0)
			return page, trunc, "liar-" + strconv.Itoa(n+1)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			nestedRepo(t, f)
			before := f.keys(t)
			l := newLiar(t, f.srv.Endpoint, pagedLie(tc.cut))
			r, stderr, code := f.runBounded(t, l.URL, f.gcArgs("--force")...)
			left := f.keys(t)
			for _, k := range without(before, left...) {
				if strings.HasPrefix(k, ".river/tmp/") {
					t.Errorf("deleted %s behind the lying listing of its scope", k)
				}
			}
			if code != 1 || len(r.Errors) == 0 {
				t.Errorf("exit %d, errors[] %v: want 1 and the listing named\n%.1500s", code, r.Errors, stderr)
			}
		})
	}
}

// TestDeleteAnswersThatLieKeepTheRecord: the engine deletes the batch,
// and the answer river gc gets says otherwise (an error per key, a 200
// whose body is an <Error>, a body cut short). Every object the engine
// deleted is named by the run's removed[] or by the next run's
// interrupted, none is deleted twice, none the policy keeps.
func TestDeleteAnswersThatLieKeepTheRecord(t *testing.T) {
	tmp := prefix + ".river/tmp/"
	for _, tc := range []struct {
		name    string
		rewrite func(answer []byte) []byte
	}{
		{"an InternalError per key", func(a []byte) []byte {
			return perKey(a, "<Error><Key>", "</Key><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>")
		}},
		{"an AccessDenied per key", func(a []byte) []byte {
			return perKey(a, "<Error><Key>", "</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>")
		}},
		{"200 with an error body", func([]byte) []byte {
			return []byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>`)
		}},
		{"the body cut short", func(a []byte) []byte { return a[:len(a)/2] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			l := newLiar(t, f.srv.Endpoint, func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool) {
				if !isBatchDelete(r) || !bytes.Contains(body, []byte(tmp)) {
					return 0, nil, nil, false
				}
				status, h, answer, err := l.forward(r, body)
				if err != nil || status != http.StatusOK {
					return http.StatusBadGateway, nil, nil, true
				}
				return status, h, tc.rewrite(answer), true
			})
			r, stderr, _ := f.runBounded(t, l.URL, f.gcArgs("--force")...)
			next, _, _ := f.runBounded(t, f.srv.Endpoint, f.gcArgs("--dry-run")...)
			named := r.removed()
			if next.Interrupted != nil {
				named = union(named, next.Interrupted.Removed)
			}
			for _, rel := range l.treeDeleted(t, f) {
				if !slices.Contains(named, rel) {
					t.Errorf("the engine deleted %s and no record names it (removed[] %v, next interrupted %+v)\n%.1500s", rel, r.removed(), next.Interrupted, stderr)
				}
			}
		})
	}
}

// perKey rewrites a DeleteObjects answer: every <Deleted> becomes
// open+key+close.
func perKey(answer []byte, open, close string) []byte {
	s := string(answer)
	var b strings.Builder
	for {
		i := strings.Index(s, "<Deleted>")
		if i < 0 {
			b.WriteString(s)
			return []byte(b.String())
		}
		j := strings.Index(s[i:], "</Deleted>")
		b.WriteString(s[:i])
		d := s[i : i+j]
		k0, k1 := strings.Index(d, "<Key>")+len("<Key>"), strings.Index(d, "</Key>")
		b.WriteString(open + d[k0:k1] + close)
		s = s[i+j+len("</Deleted>"):]
	}
}

// TestRedirectWithCredentialsStaysHidden: a server answers with a
// redirect whose Location carries a user, a password and a presigned
// query; no output of river gc shows them.
func TestRedirectWithCredentialsStaysHidden(t *testing.T) {
	f := newFixture(t)
	const secret = "S3CR3Tpassw0rd"
	l := newLiar(t, f.srv.Endpoint, func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool) {
		if r.Method != http.MethodGet || isList(r) {
			return 0, nil, nil, false
		}
		loc := "http://AKIAREDIRECTUSER:" + secret + "@127.0.0.1:1" + r.URL.Path + "?X-Amz-Credential=AKIAREDIRECTUSER&X-Amz-Signature=" + secret
		return http.StatusTemporaryRedirect, http.Header{"Location": {loc}}, []byte("<Error><Code>TemporaryRedirect</Code><Message>Please re-send this request to " + loc + "</Message><Endpoint>" + loc + "</Endpoint></Error>"), true
	})
	for _, mode := range []string{"--dry-run", "--debug"} {
		cmd, stdout, stderr := f.command(l.URL, f.gcArgs(mode)...)
		cmd.Run()
		for _, out := range []string{stdout.String(), stderr.String()} {
			for _, s := range []string{secret, f.srv.SecretKey} {
				if strings.Contains(out, s) {
					t.Errorf("%s: a credential in the output:\n%.3000s", mode, out)
				}
			}
		}
	}
}
