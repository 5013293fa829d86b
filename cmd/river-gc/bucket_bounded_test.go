//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestBucketCredentialProcessOutputNeverPrinted (SPEC H1): a
// profile's credential_process that prints keys the SDK cannot parse (an
// Expiration that is no RFC 3339 time) is a config error in the
// project's words; the SDK quotes the process's whole output in its
// error, and none of the keys it holds reaches any output, in either
// language, with --debug or --json. No engine is needed: the SDK fails
// before it sends anything.
func TestBucketCredentialProcessOutputNeverPrinted(t *testing.T) {
	t.Parallel()
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

// silentServer listens on loopback and never finishes an answer: mode
// "headers" reads each request and says nothing; "body" sends a 200
// with a Content-Length it never fills, a byte every second (a
// slow-loris answer). It stops with t.
func silentServer(t *testing.T, mode string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	t.Cleanup(func() { close(done); ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				c.Read(make([]byte, 64<<10))
				if mode == "body" {
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 100000\r\n\r\n<?xml")
				}
				for range 600 { // bounded: ten minutes at most
					select {
					case <-done:
						return
					case <-time.After(time.Second):
					}
					if mode == "body" {
						if _, err := io.WriteString(c, " "); err != nil {
							return
						}
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// TestBucketTimeoutMustBeADuration: RIVER_GC_S3_TIMEOUT that is no
// positive duration is a config error naming it, before any request.
func TestBucketTimeoutMustBeADuration(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"-1s", "0", "ten minutes"} {
		env := setEnv(setEnv(os.Environ(), "RIVER_GC_S3_TIMEOUT", v), "AWS_REGION", "us-east-1")
		_, stderr, code := runBucketGC(t, env, "--root", "s3://b/org/repo", "--lang", "en")
		if code != 2 || !strings.Contains(string(stderr), "RIVER_GC_S3_TIMEOUT="+strconv.Quote(v)+": want a positive duration") {
			t.Errorf("%q: exit %d\n%s", v, code, stderr)
		}
	}
}

// TestBucketSilentServerIsBounded (SPEC H6): an endpoint that
// accepts the connection and never answers, or answers a byte a second
// (slow loris), does not hold river-gc for ever: each attempt ends after
// RIVER_GC_S3_TIMEOUT and the run is a config error naming the server.
func TestBucketSilentServerIsBounded(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, mode := range []string{"headers", "body"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			silentServerIsBounded(t, bin, mode)
		})
	}
}

// silentServerIsBounded runs river-gc against a silentServer in mode.
// The server never answers, so a short RIVER_GC_S3_TIMEOUT (1s) changes
// nothing the test asserts: the run only waits less.
func silentServerIsBounded(t *testing.T, bin, mode string) {
	env := os.Environ()
	for name, v := range map[string]string{"AWS_ACCESS_KEY_ID": "AKIASILENT", "AWS_SECRET_ACCESS_KEY": "silent-secret", "AWS_REGION": "us-east-1",
		"AWS_ENDPOINT_URL_S3": silentServer(t, mode), "AWS_MAX_ATTEMPTS": "2", "RIVER_GC_S3_TIMEOUT": "1s", "AWS_PROFILE": "", "AWS_CONFIG_FILE": os.DevNull} {
		env = setEnv(env, name, v)
	}
	cmd := exec.Command(bin, "--json", "--root", "s3://b/org/repo")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("%s: %v, want exit 2 (config error)\n%s", mode, err, stderr.String())
		}
		if got := stderr.String(); !strings.Contains(got, "did not answer within 1s (RIVER_GC_S3_TIMEOUT)") || strings.Contains(got, "operation error") || strings.Contains(got, "SDK") {
			t.Errorf("%s: not in our words:\n%s", mode, got)
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Errorf("%s: river-gc still waits for the server after 90 s (RIVER_GC_S3_TIMEOUT=1s, 2 attempts)\n%s", mode, stderr.String())
	}
}

// controlKeys are names a file system holds and S3 stores, some with
// characters XML 1.0 cannot carry (U+0001, U+001B: a listing without
// EncodingType=url shows them as U+FFFD, and a DeleteObjects body can
// name them only so), some it can carry escaped (CR, TAB, U+0085), and
// some that a URL encoding or decoding could confuse.
func controlKeys() map[string]string {
	return map[string]string{
		".river/tmp/a\x01b.tmp":  "one",
		".river/tmp/e\x1bf.tmp":  "esc",
		".river/tmp/c\rd.tmp":    "cr",
		".river/tmp/t\tu.tmp":    "tab",
		".river/tmp/n\u0085.tmp": "nel",
		".river/tmp/plain.tmp":   "plain",
		".river/tmp/q?x#y.tmp":   "query and fragment",
		".river/tmp/%zz+%2B.tmp": "not an escape",
		".river/tmp/a..b/ c.":    "dots and a space",
		".river/tmp/~u/$v&w.tmp": "shell and URL characters",
	}
}

// TestBucketTwinTreeControlCharacters (SPEC H2): keys with
// control characters are judged and deleted in a bucket as the same
// names are on disk: the same removed[] in a dry-run and with --force,
// and the same names left behind (none). Before, the listing showed
// U+0001 as U+FFFD: the dry-run promised to remove a key that does not
// exist, and --force deleted nothing of it and said nothing.
func TestBucketTwinTreeControlCharacters(t *testing.T) {
	t.Parallel()
	srv, dir, tree := s3test.Start(t), t.TempDir(), controlKeys()
	name := srv.Bucket(t, false)
	upload(t, srv, name, "cc/repo/", dir, tree)
	// Outside the root: it stays, and the test's cleanup must remove it.
	upload(t, srv, name, "cc/", "", map[string]string{"outside\x02.bin": "x"})
	env := bucketEnv(srv)
	args := []string{"--json", "--now", future, "--scope", "tmp", "--retention-days", "90", "--max-entries", "1000"}
	for _, mode := range []string{"--dry-run", "--force"} {
		disk, derr, dcode := runBucketGC(t, env, append([]string{mode, "--root", dir}, args...)...)
		obj, oerr, ocode := runBucketGC(t, env, append([]string{mode, "--root", "s3://" + name + "/cc/repo"}, args...)...)
		if dcode != 0 || ocode != 0 {
			t.Errorf("%s: exit %d (disk), %d (bucket)\n%s\n%s", mode, dcode, ocode, derr, oerr)
		}
		d, o := fields(t, disk, "removed", "errors"), fields(t, obj, "removed", "errors")
		for _, f := range []string{"removed", "errors"} {
			if d[f] != o[f] {
				t.Errorf("%s: %s differs\ndisk:   %s\nbucket: %s", mode, f, d[f], o[f])
			}
		}
		if got := len(readRecord(t, obj).Removed); got != len(tree) {
			t.Errorf("%s: %d removed in the bucket, want all %d", mode, got, len(tree))
		}
	}
	if left := encodedKeys(t, srv, name, "cc/repo/.river/tmp/"); len(left) > 0 {
		t.Errorf("left in the bucket after --force: %q", left)
	}
}

// encodedKeys lists the keys below prefix with EncodingType=url, so that
// every character comes back as stored.
func encodedKeys(t *testing.T, srv *s3test.Server, name, prefix string) []string {
	t.Helper()
	out, err := srv.Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: &name, Prefix: &prefix, EncodingType: types.EncodingTypeUrl})
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, o := range out.Contents {
		k, err := url.QueryUnescape(aws.ToString(o.Key))
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, strings.TrimPrefix(k, prefix))
	}
	return ks
}

// TestBucketSingleDeleteNeedsItsProof (SPEC H3): a key XML
// cannot carry is deleted by a DeleteObject If-Match, a request the
// canary of the config phase does not try. Behind a server that honours
// DeleteObjects' ETags but ignores DeleteObject's If-Match (the proxy
// strips the condition of single deletes only), such keys are not
// deleted (errors[], exit 1) and the others are.
func TestBucketSingleDeleteNeedsItsProof(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	tree := controlKeys()
	upload(t, srv, name, "cc/repo/", "", tree)
	p := s3test.Proxy(t, srv, s3test.Fault{Kind: s3test.KindDelete, Action: s3test.ActStrip})
	out, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), "--force", "--json", "--now", future, "--scope", "tmp",
		"--retention-days", "90", "--root", "s3://"+name+"/cc/repo")
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, stderr)
	}
	rec := readRecord(t, out)
	var failed []string
	for _, e := range rec.Errors {
		failed = append(failed, e.Path)
	}
	unsafe := []string{".river/tmp/a\x01b.tmp", ".river/tmp/e\x1bf.tmp"}
	if !slices.Equal(failed, unsafe) {
		t.Errorf("errors[] names %q, want %q", failed, unsafe)
	}
	if left := encodedKeys(t, srv, name, "cc/repo/"); !slices.Equal(slices.DeleteFunc(left, func(k string) bool { return strings.HasPrefix(k, ".river/gc-") }), unsafe) {
		t.Errorf("left %q, want only %q", left, unsafe)
	}
	if len(rec.Removed) != len(tree)-len(unsafe) {
		t.Errorf("removed %d, want %d", len(rec.Removed), len(tree)-len(unsafe))
	}
}
