package s3

import (
	"context"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// CredentialsUnavailableError means the SDK's credential chain gave no
// credentials (a failing credential_process, SSO login, role, ...). Its
// text never carries the provider's own: the SDK quotes a
// credential_process's whole output, keys included, when it cannot parse
// it. Source names the provider when the SDK says it.
type CredentialsUnavailableError struct {
	Source string
	err    error
}

func (e *CredentialsUnavailableError) Error() string {
	if e.Source != "" {
		return "cannot get credentials from the AWS configuration (" + e.Source + ")"
	}
	return "cannot get credentials from the AWS configuration"
}

// Unwrap keeps the provider's error reachable to errors.Is and As (a
// cancelled context, say), never to the error's text.
func (e *CredentialsUnavailableError) Unwrap() error { return e.err }

// guardedCredentials is the SDK's credential chain with its failures
// worded by CredentialsUnavailableError, and what it hands out (key id,
// secret key, session token; the key id and the token go to the server,
// which may echo them) remembered, so that redact hides them wherever
// they would appear.
type guardedCredentials struct{ inner aws.CredentialsProvider }

// Retrieve asks the chain for credentials.
func (g guardedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := g.inner.Retrieve(ctx)
	if err != nil {
		return c, &CredentialsUnavailableError{Source: c.Source, err: err}
	}
	rememberSecrets(c.AccessKeyID, c.SecretAccessKey, c.SessionToken)
	return c, nil
}

// ProviderSources keeps the chain's sources for the SDK's user agent.
func (g guardedCredentials) ProviderSources() []aws.CredentialSource {
	if s, ok := g.inner.(aws.CredentialProviderSource); ok {
		return s.ProviderSources()
	}
	return nil
}

// secrets are the key ids, secret keys and session tokens the chain
// handed out.
var secrets struct {
	sync.Mutex
	values []string
}

// minSecret is the shortest value redact hides: a real key id is 20
// bytes, a secret key 40, a token hundreds; a placeholder such as "test"
// (what local emulators take) would otherwise be hidden in every path
// and word that holds it.
const minSecret = 8

// rememberSecrets adds the values of at least minSecret bytes to secrets.
func rememberSecrets(vs ...string) {
	secrets.Lock()
	defer secrets.Unlock()
	for _, v := range vs {
		if len(v) >= minSecret && !slices.Contains(secrets.values, v) {
			secrets.values = append(secrets.values, v)
		}
	}
}

// knownSecrets returns the secrets handed out so far.
func knownSecrets() []string {
	secrets.Lock()
	defer secrets.Unlock()
	return append([]string(nil), secrets.values...)
}
