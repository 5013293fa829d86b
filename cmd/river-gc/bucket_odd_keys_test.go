//go:build linux

package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// setEnv returns env with name=value (replacing it), or without name
// when value is "".
func setEnv(env []string, name, value string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	if value != "" {
		out = append(out, name+"="+value)
	}
	return out
}

// TestBucketUserMistakesInOurWords: what a new user gets
// wrong first — a wrong secret, an unknown key id, no region, an
// endpoint nothing listens on — is a config error (exit 2) in the
// project's words in both languages, naming what to check, never the
// SDK's internals ("operation error", "StatusCode", "RequestID") and
// never the secret.
func TestBucketUserMistakesInOurWords(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a"})
	base := bucketEnv(srv)
	for _, tc := range []struct {
		name string
		env  []string
		en   []string
		ja   []string
	}{
		{"wrong secret", setEnv(base, "AWS_SECRET_ACCESS_KEY", "wrong-secret-0123"),
			[]string{"refused the credentials", "SignatureDoesNotMatch", "AWS_SECRET_ACCESS_KEY"}, []string{"資格情報", "SignatureDoesNotMatch"}},
		{"unknown key id", setEnv(base, "AWS_ACCESS_KEY_ID", "AKIAUNKNOWN"),
			[]string{"refused the credentials", "InvalidAccessKeyId", "AWS_ACCESS_KEY_ID"}, []string{"資格情報", "InvalidAccessKeyId"}},
		{"no region", setEnv(base, "AWS_REGION", ""),
			[]string{"no region", "AWS_REGION"}, []string{"リージョン", "AWS_REGION"}},
		{"nothing listens", setEnv(base, "AWS_ENDPOINT_URL_S3", "http://127.0.0.1:1"),
			[]string{"cannot reach", "127.0.0.1:1", "AWS_ENDPOINT_URL_S3"}, []string{"接続できません", "127.0.0.1:1"}},
	} {
		for lang, words := range map[string][]string{"en": tc.en, "ja": tc.ja} {
			env := setEnv(setEnv(tc.env, "AWS_DEFAULT_REGION", ""), "AWS_MAX_ATTEMPTS", "1")
			_, stderr, code := runBucketGC(t, env, "--lang", lang, "--root", "s3://"+name+"/r")
			if code != 2 {
				t.Errorf("%s (%s): exit %d, want 2\n%s", tc.name, lang, code, stderr)
			}
			for _, w := range words {
				if !bytes.Contains(stderr, []byte(w)) {
					t.Errorf("%s (%s): the message does not say %q:\n%s", tc.name, lang, w, stderr)
				}
			}
			for _, w := range []string{"operation error", "StatusCode", "RequestID", "wrong-secret-0123", srv.SecretKey} {
				if bytes.Contains(stderr, []byte(w)) {
					t.Errorf("%s (%s): the message shows %q:\n%s", tc.name, lang, w, stderr)
				}
			}
		}
	}
}

// oddKeys are names that S3 and a file system both hold, and that an
// escaping, a URL encoding or a prefix comparison could confuse: spaces,
// '%', '+', NFC and NFD twins, an astral character, a name that is a
// prefix of its neighbours, a review artifact whose name differs only
// after '%' decoding, a 1000-byte key (keys go to 1024 bytes).
func oddKeys() map[string]string {
	old := `{"timestamp":"2024-01-01T00:00:00Z"}`
	recent := `{"timestamp":"2026-11-30T00:00:00Z"}`
	long := ".river/tmp/" + strings.Repeat("d", 200) + "/" + strings.Repeat("e", 200) + "/" + strings.Repeat("f", 200) + "/" + strings.Repeat("g", 200) + "/" + strings.Repeat("h", 150) + ".json"
	return map[string]string{
		".river/tmp/a b.json":                 old,
		".river/tmp/a%20b.json":               recent,
		".river/tmp/a+b.json":                 old,
		".river/tmp/caf\u00e9.json":           old,
		".river/tmp/cafe\u0301.json":          recent,
		".river/tmp/\U0001F600.json":          old,
		".river/tmp/x.json":                   recent,
		".river/tmp/x.json.bak":               "old bytes",
		".river/tmp/x.jsonl":                  old,
		".river/tmp/x/y.json":                 old,
		"artifacts/review-artifact-1.json":    old,
		"artifacts/review-artifact-%31.json":  recent,
		"artifacts/review-artifact-1.json%00": old,
		"artifacts/evals/run 1/summary.json":  recent,
		"artifacts/evals/run 1/log.txt":       "log",
		"artifacts/evals/run+1/summary.json":  old,
		"artifacts/evals/run+1/log.txt":       "log",
		".river/memory/.gitkeep":              "",
		".river/memory/%2Egitkeep":            old,
		long:                                  old,
	}
}

// TestBucketTwinTreeOddKeys: the odd names judged on disk and
// in a bucket give the same removed[], keptSummary and errors, in a
// dry-run and with --force, and leave the same names behind.
func TestBucketTwinTreeOddKeys(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	dir := t.TempDir()
	tree := oddKeys()
	upload(t, srv, name, "odd/repo/", dir, tree)
	env := bucketEnv(srv)
	now := time.Now().UTC().Add(24 * time.Hour).Format(time.RFC3339)
	args := []string{"--json", "--now", now, "--scope", "all", "--retention-days", "90", "--max-entries", "1000"}
	same := []string{"removed", "keptSummary", "errors", "warnings"}
	for _, mode := range []string{"--dry-run", "--force"} {
		disk, derr, dcode := runBucketGC(t, env, append([]string{mode, "--root", dir}, args...)...)
		obj, oerr, ocode := runBucketGC(t, env, append([]string{mode, "--root", "s3://" + name + "/odd/repo"}, args...)...)
		if dcode != ocode {
			t.Errorf("%s: exit %d (disk), %d (bucket)\n%s\n%s", mode, dcode, ocode, derr, oerr)
		}
		d, o := fields(t, disk, same...), fields(t, obj, same...)
		for _, f := range same[:3] {
			if d[f] != o[f] {
				t.Errorf("%s: %s differs\ndisk:   %s\nbucket: %s", mode, f, d[f], o[f])
			}
		}
		if !strings.Contains(d["removed"], "a b.json") {
			t.Errorf("%s: the tree does not exercise removal: %s", mode, d["removed"])
		}
	}
	diskEqualsBucket(t, dir, srv, name, "odd/repo/")
}

// TestBucketKeyWithKeysBelowIsNamed: a bucket may hold a key
// and keys below it (x and x/y), which no file system can. The engine
// takes x for a directory and judges it not at all; river gc keeps it
// and names it (the unjudgeable-name warning, --explain), rather than
// counting it as kept "within every limit" at 363 days old.
func TestBucketKeyWithKeysBelowIsNamed(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "kb/repo/", "", map[string]string{".river/tmp/a": "a", ".river/tmp/a/b": "b", ".river/tmp/a-c": "c"})
	root := "s3://" + name + "/kb/repo"
	later := time.Now().UTC().Add(365 * 24 * time.Hour).Format(time.RFC3339)
	out, stderr, code := runBucketGC(t, bucketEnv(srv), "--force", "--json", "--root", root, "--now", later)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	f := fields(t, out, "warnings", "removed")
	if !strings.Contains(f["warnings"], `"unjudgeable-name"`) || !strings.Contains(f["warnings"], `".river/tmp/a"`) {
		t.Errorf("the key with keys below is not named: %s", f["warnings"])
	}
	if !strings.Contains(f["removed"], `".river/tmp/a/b"`) || !strings.Contains(f["removed"], `".river/tmp/a-c"`) || strings.Contains(f["removed"], `".river/tmp/a",`) {
		t.Errorf("removed %s: want a/b and a-c, not a", f["removed"])
	}
	upload(t, srv, name, "kb/repo/", "", map[string]string{".river/tmp/a/b": "b"})
	ex, stderr, _ := runBucketGC(t, bucketEnv(srv), "--root", root, "--now", later, "--explain", ".river/tmp/a")
	if !bytes.Contains(ex, []byte("cannot judge")) {
		t.Errorf("--explain does not say the engine cannot judge it:\n%s%s", ex, stderr)
	}
}
