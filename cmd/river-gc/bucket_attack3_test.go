//go:build linux

package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
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
	for _, v := range []string{"-1s", "0", "ten minutes"} {
		env := setEnv(setEnv(os.Environ(), "RIVER_GC_S3_TIMEOUT", v), "AWS_REGION", "us-east-1")
		_, stderr, code := runBucketGC(t, env, "--root", "s3://b/org/repo", "--lang", "en")
		if code != 2 || !strings.Contains(string(stderr), "RIVER_GC_S3_TIMEOUT="+strconv.Quote(v)+": want a positive duration") {
			t.Errorf("%q: exit %d\n%s", v, code, stderr)
		}
	}
}

// TestBucketSilentServerIsBounded (attack3 F2, SPEC H6): an endpoint that
// accepts the connection and never answers, or answers a byte a second
// (slow loris), does not hold river-gc for ever: each attempt ends after
// RIVER_GC_S3_TIMEOUT and the run is a config error naming the server.
func TestBucketSilentServerIsBounded(t *testing.T) {
	bin := buildBinary(t)
	for _, mode := range []string{"headers", "body"} {
		env := os.Environ()
		for name, v := range map[string]string{"AWS_ACCESS_KEY_ID": "AKIASILENT", "AWS_SECRET_ACCESS_KEY": "silent-secret", "AWS_REGION": "us-east-1",
			"AWS_ENDPOINT_URL_S3": silentServer(t, mode), "AWS_MAX_ATTEMPTS": "2", "RIVER_GC_S3_TIMEOUT": "2s", "AWS_PROFILE": "", "AWS_CONFIG_FILE": os.DevNull} {
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
			if got := stderr.String(); !strings.Contains(got, "did not answer within 2s (RIVER_GC_S3_TIMEOUT)") || strings.Contains(got, "operation error") || strings.Contains(got, "SDK") {
				t.Errorf("%s: not in our words:\n%s", mode, got)
			}
		case <-time.After(90 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Errorf("%s: river-gc still waits for the server after 90 s (RIVER_GC_S3_TIMEOUT=2s, 2 attempts)\n%s", mode, stderr.String())
		}
	}
}
