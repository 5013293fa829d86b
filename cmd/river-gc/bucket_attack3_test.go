//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBucketCredentialProcessOutputNeverPrinted (attack3 F1, SPEC H1): a
// profile's credential_process that prints keys the SDK cannot parse (an
// Expiration that is no RFC 3339 time) is a config error in the
// project's words; the SDK quotes the process's whole output in its
// error, and none of the keys it holds reaches any output, in either
// language, with --debug or --json. No engine is needed: the SDK fails
// before it sends anything.
func TestBucketCredentialProcessOutputNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	secrets := []string{"AKIAPROCESSLEAK", "SuperSecretFromProcess42", "TokenFromProcess77"}
	for i, output := range []string{
		`{"Version":1,"AccessKeyId":"AKIAPROCESSLEAK","SecretAccessKey":"SuperSecretFromProcess42","SessionToken":"TokenFromProcess77","Expiration":"tomorrow"}`,
		`{"Version":1,"AccessKeyId":"AKIAPROCESSLEAK","SecretAccessKey":"SuperSecretFromProcess42","SessionToken":"TokenFromProcess77"} and a log line`,
	} {
		script := filepath.Join(dir, "creds"+string(rune('a'+i))+".sh")
		if err := os.WriteFile(script, []byte("#!/bin/sh\necho '"+output+"'\n"), 0o700); err != nil {
			t.Fatal(err)
		}
		cfg := filepath.Join(dir, "config"+string(rune('a'+i)))
		if err := os.WriteFile(cfg, []byte("[profile helper]\nregion = us-east-1\ncredential_process = "+script+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		env := os.Environ()
		for _, name := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL"} {
			env = setEnv(env, name, "")
		}
		env = setEnv(setEnv(setEnv(env, "AWS_CONFIG_FILE", cfg), "AWS_PROFILE", "helper"), "AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
		env = setEnv(setEnv(env, "AWS_ENDPOINT_URL_S3", "http://127.0.0.1:1"), "AWS_EC2_METADATA_DISABLED", "true")
		for _, args := range [][]string{{"--debug", "--lang", "en"}, {"--json", "--force", "--lang", "ja"}} {
			out, stderr, code := runBucketGC(t, env, append(args, "--root", "s3://b/org/repo")...)
			if code != 2 {
				t.Errorf("output %d %v: exit %d, want 2 (config error)\n%s", i, args, code, stderr)
			}
			for _, s := range secrets {
				if bytes.Contains(out, []byte(s)) || bytes.Contains(stderr, []byte(s)) {
					t.Errorf("output %d %v: %s is printed:\n%s%s", i, args, s, out, stderr)
				}
			}
			if !strings.Contains(string(stderr), "credential") && !strings.Contains(string(stderr), "資格情報") {
				t.Errorf("output %d %v: the message does not say the credentials failed:\n%s", i, args, stderr)
			}
		}
	}
}
