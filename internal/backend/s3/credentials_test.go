package s3

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// TestGuardedCredentials: a chain that fails gives an
// error whose text is ours, the cause still reachable; what a chain
// hands out is hidden in bucket errors, but not a placeholder as short
// as "test".
func TestGuardedCredentials(t *testing.T) {
	cause := errors.New("parse failed of process output: {\"SecretAccessKey\":\"s3cr3t-from-the-process\"}")
	g := guardedCredentials{aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{Source: "ProcessProvider"}, cause
	})}
	_, err := g.Retrieve(context.Background())
	if !errors.Is(err, cause) || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "ProcessProvider") {
		t.Errorf("Retrieve = %v", err)
	}
	g = guardedCredentials{aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{AccessKeyID: "AKIAGUARDEDTEST1", SecretAccessKey: "guarded-secret-value", SessionToken: "test"}, nil
	})}
	if _, err := g.Retrieve(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := redact(errors.New("key AKIAGUARDEDTEST1 secret guarded-secret-value in org/test-repo")).Error()
	if want := "key xxxxx secret xxxxx in org/test-repo"; got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
}
