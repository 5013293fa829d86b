package s3

import (
	"errors"
	"net"
	"net/url"
	"slices"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// CredentialsError means the server refused the request's credentials: a
// wrong secret, an unknown key id, an expired token, no permission. Code
// is the server's error code; the original error stays reachable.
type CredentialsError struct {
	Code string
	Err  error
}

func (e *CredentialsError) Error() string {
	return "the server refused the credentials (" + e.Code + ")"
}
func (e *CredentialsError) Unwrap() error { return e.Err }

// UnreachableError means no answer came from the endpoint's host at all
// (nothing listens, no such host): Host is host[:port], never userinfo.
type UnreachableError struct {
	Host string
	Err  error
}

func (e *UnreachableError) Error() string { return "cannot reach " + e.Host + ": " + e.Err.Error() }
func (e *UnreachableError) Unwrap() error { return e.Err }

// SilentError means the server did not finish an answer within the
// attempt's timeout (TimeoutEnv) on any attempt: it accepted the
// connection and said nothing, or too slowly.
type SilentError struct {
	Timeout string
	Err     error
}

func (e *SilentError) Error() string { return "the server did not answer within " + e.Timeout }
func (e *SilentError) Unwrap() error { return e.Err }

// ErrNoRegion means the SDK's standard chain gave no region (AWS_REGION,
// the profile's region): the SDK would refuse every request.
var ErrNoRegion = errors.New("no region is set")

// credentialCodes are the S3 (and STS) error codes that mean the
// credentials, not the request, are at fault.
var credentialCodes = []string{"InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "ExpiredToken",
	"InvalidToken", "TokenRefreshRequired", "InvalidClientTokenId", "AuthorizationHeaderMalformed"}

// refused maps err to a RedirectError, a CredentialsError, a
// SilentError or an UnreachableError, or returns nil for any other
// error.
func refused(err error) error {
	if r := redirected(err); r != nil {
		return r
	}
	var api smithy.APIError
	if errors.As(err, &api) && slices.Contains(credentialCodes, api.ErrorCode()) {
		return &CredentialsError{Code: api.ErrorCode(), Err: err}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		d, _ := attemptTimeout()
		return &SilentError{Timeout: d.String(), Err: err}
	}
	var send *smithyhttp.RequestSendError
	var ue *url.Error
	if errors.As(err, &send) && errors.As(err, &ue) {
		host := ""
		if u, perr := url.Parse(ue.URL); perr == nil {
			host = u.Host
		}
		return &UnreachableError{Host: host, Err: ue.Err}
	}
	return nil
}
