//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// configEnv is the engine's environment with the endpoint taken out of
// the variables, so the SDK reads it from the shared config file at cfg
// (AWS_CONFIG_FILE), with profile (AWS_PROFILE) selected; no credentials
// file is read.
func configEnv(srv *s3test.Server, cfg, profile string) []string {
	env := slices.DeleteFunc(bucketEnv(srv), func(kv string) bool {
		return strings.HasPrefix(kv, "AWS_ENDPOINT_URL") || strings.HasPrefix(kv, "AWS_PROFILE=") ||
			strings.HasPrefix(kv, "AWS_CONFIG_FILE=") || strings.HasPrefix(kv, "AWS_SHARED_CREDENTIALS_FILE=")
	})
	return append(env, "AWS_CONFIG_FILE="+cfg, "AWS_PROFILE="+profile, "AWS_SHARED_CREDENTIALS_FILE="+os.DevNull)
}

// TestBucketConfigFileEndpointSecretsNeverPrinted (SPEC H1): an endpoint
// set in the shared config file (a profile's endpoint_url, or a services
// section's s3 endpoint_url) that carries a user name, a password or a
// query never shows them in any output — stdout, stderr, the JSON, the
// summary, with --debug, --verbose and --force — whether the endpoint
// works, cannot be reached or does not parse.
func TestBucketConfigFileEndpointSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a"})
	host := strings.TrimPrefix(srv.Endpoint, "http://")
	secrets := []string{"AKIATTACK", "SeCrEtPass", "t0kEnQuery"}
	dir := t.TempDir()
	for i, endpoint := range []string{
		"http://AKIATTACK:SeCrEtPass@" + host,                    // works (the userinfo is not sent)
		"http://AKIATTACK:SeCrEtPass@" + host + "/?x=t0kEnQuery", // a query: the SDK refuses it, quoting it whole
		"http://AKIATTACK:SeCrEtPass@127.0.0.1:1",                // refused connection: the client quotes the URL
		"http://AKIATTACK:SeCrEtPass@" + host + "/%zz",           // does not parse: the SDK quotes it whole
	} {
		for _, layout := range []struct{ name, profile, text string }{
			{"profile", "default", "[default]\nendpoint_url = " + endpoint + "\n"},
			{"services", "bench", "[profile bench]\nservices = mine\n\n[services mine]\ns3 =\n  endpoint_url = " + endpoint + "\n"},
		} {
			cfg := filepath.Join(dir, layout.name+string(rune('a'+i)))
			if err := os.WriteFile(cfg, []byte(layout.text), 0o600); err != nil {
				t.Fatal(err)
			}
			env := configEnv(srv, cfg, layout.profile)
			summary := filepath.Join(dir, "summary.md")
			for _, args := range [][]string{{"--debug"}, {"--verbose"}, {"--json", "--force", "--now", future, "--summary-file", summary}} {
				os.Remove(summary)
				out, stderr, code := runBucketGC(t, env, append(args, "--root", "s3://"+name+"/r")...)
				written, _ := os.ReadFile(summary)
				if i == 0 && code != 0 {
					t.Errorf("%s %s %v: exit %d, want the endpoint of the config file used\n%s", layout.name, endpoint, args, code, stderr)
				}
				if i > 0 && code == 0 {
					t.Errorf("%s %s %v: exit 0, want the endpoint of the config file refused", layout.name, endpoint, args)
				}
				for _, s := range secrets {
					for what, b := range map[string][]byte{"stdout": out, "stderr": stderr, "the summary file": written} {
						if bytes.Contains(b, []byte(s)) {
							t.Errorf("%s %s %v: %s is in %s:\n%s", layout.name, endpoint, args, s, what, b)
						}
					}
				}
			}
		}
	}
	if got := keysIn(t, srv, name, "r/"); slices.Contains(got, ".river/tmp/a.tmp") {
		t.Errorf("left %q: the --force runs through the config file's endpoint deleted nothing", got)
	}
}
