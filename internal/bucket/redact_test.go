package bucket

import (
	"errors"
	"fmt"
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
