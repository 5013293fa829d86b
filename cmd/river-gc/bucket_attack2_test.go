//go:build linux

package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

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

// TestBucketUserMistakesInOurWords (attack2 F5): what a new user gets
// wrong first — a wrong secret, an unknown key id, no region, an
// endpoint nothing listens on — is a config error (exit 2) in the
// project's words in both languages, naming what to check, never the
// SDK's internals ("operation error", "StatusCode", "RequestID") and
// never the secret.
func TestBucketUserMistakesInOurWords(t *testing.T) {
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
