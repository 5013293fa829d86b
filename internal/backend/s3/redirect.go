package s3

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// RedirectError means the server answered with a redirect (HTTP 3xx).
// river gc follows none: a followed 307 re-sends a signed request, key
// id included, with its method and body (a lock, a journal, a
// DeleteObjects) to a host or port nobody configured, and would act on
// that host's answers. Host is the Location's host[:port] ("" when the
// answer names none), never its userinfo, path or query.
type RedirectError struct {
	Status int
	Host   string
	Err    error
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("the server redirects (HTTP %d) to %q; river gc follows no redirect", e.Status, e.Host)
}
func (e *RedirectError) Unwrap() error { return e.Err }

// noRedirects makes the SDK's HTTP client follow no redirect: the 3xx
// answer itself comes back, and redirected turns it into a
// RedirectError. The transport (AWS_CA_BUNDLE's trust included) and the
// attempt timeout stay the SDK's.
func noRedirects(c aws.HTTPClient) aws.HTTPClient {
	bc, ok := c.(*awshttp.BuildableClient)
	if !ok {
		return c
	}
	return &http.Client{Timeout: bc.GetTimeout(), Transport: bc.GetTransport(),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// redirected maps an answer with a 3xx status to a RedirectError, or
// returns nil.
func redirected(err error) error {
	var re *awshttp.ResponseError
	if !errors.As(err, &re) || re.HTTPStatusCode() < 300 || re.HTTPStatusCode() > 399 {
		return nil
	}
	host := ""
	if re.Response != nil {
		if u, perr := url.Parse(re.Response.Header.Get("Location")); perr == nil {
			host = u.Host
		}
	}
	return &RedirectError{Status: re.HTTPStatusCode(), Host: host, Err: err}
}
