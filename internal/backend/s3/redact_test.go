package s3

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://AK:SeCrEt@127.0.0.1:9000/?x=tok#f": "http://xxxxx@127.0.0.1:9000/?xxxxx",
		"https://s3.example.internal":              "https://s3.example.internal",
		"http://u:p@h/a@b":                         "http://xxxxx@h/a@b",
		"u:p@h?q":                                  "xxxxx@h?xxxxx",
	} {
		if got := redactURL(raw); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestRedactKeepsTheChain: a redacted error hides the password, the user
// name and the query, also where the SDK re-spelt the URL, and errors.Is
// still sees the cause.
func TestRedactKeepsTheChain(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL_S3", "http://AKIATTACK:SeCrEt@h:1/?x=t0ken")
	t.Setenv("AWS_ENDPOINT_URL", "")
	cause := errors.New("cause")
	err := redact(fmt.Errorf("endpoint `http://AKIATTACK:SeCrEt@h:1/?x=t0ken`, user AKIATTACK, query x=t0ken: %w", cause))
	if got, want := err.Error(), "endpoint `http://xxxxx@h:1/?xxxxx`, user xxxxx, query xxxxx: cause"; got != want || !errors.Is(err, cause) {
		t.Errorf("redact = %q (Is cause: %v), want %q", got, errors.Is(err, cause), want)
	}
}

// TestIniEndpoints: every endpoint_url of a shared config file is found,
// in any profile, nested under a services section, in any case, and
// with a trailing comment also without it.
func TestIniEndpoints(t *testing.T) {
	cfg := "[default]\nregion = eu\nendpoint_url = http://a:b@h1\n" +
		"[profile x]\nservices = s\n[services s]\ns3 =\n  endpoint_url=http://c:d@h2 # note\n" +
		"sts =\n\tEndpoint_URL = https://h3\n# endpoint_url = http://commented@h4\nendpoint_url =\n"
	got := iniEndpoints(strings.NewReader(cfg))
	want := []string{"http://a:b@h1", "http://c:d@h2 # note", "http://c:d@h2", "https://h3"}
	if !slices.Equal(got, want) {
		t.Errorf("iniEndpoints = %q, want %q", got, want)
	}
}

// TestRedactHidesConfigFileEndpoints: an endpoint found only in the
// shared config file (AWS_CONFIG_FILE) is hidden in errors as one from
// the environment is.
func TestRedactHidesConfigFileEndpoints(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(cfg, []byte("[default]\nendpoint_url = http://AKIAFILE:FiLeSeCrEt@h:1/?q=t0k\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	t.Setenv("AWS_ENDPOINT_URL", "")
	readFileEndpoints()
	t.Cleanup(func() { fileEndpoints.urls = nil })
	err := redact(errors.New(`Get "http://AKIAFILE:***@h:1/?q=t0k": refused; http://AKIAFILE:FiLeSeCrEt@h:1/?q=t0k`))
	if got, want := err.Error(), `Get "http://xxxxx:***@h:1/?xxxxx": refused; http://xxxxx@h:1/?xxxxx`; got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
}
