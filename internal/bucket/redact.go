package bucket

import (
	"cmp"
	"os"
	"slices"
	"strings"
)

// hidden stands for the parts of an endpoint that may carry credentials.
const hidden = "xxxxx"

// endpointVars are the variables an endpoint URL is taken from.
var endpointVars = []string{"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"}

// redactedError is an error whose text has the configured endpoints'
// userinfo and query hidden; errors.Is and errors.As see the original.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redact hides, in err's text, the userinfo and the query of every
// endpoint configured in the environment (the SDK echoes an endpoint it
// rejects whole): credentials never appear in any output (SPEC H1).
func redact(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	out := msg
	for _, v := range endpointVars {
		out = redactEndpoint(out, os.Getenv(v))
	}
	if out == msg {
		return err
	}
	return &redactedError{msg: out, err: err}
}

// redactEndpoint replaces, in msg, the endpoint raw by its redacted form,
// then every remaining occurrence of its userinfo, password, user name
// (of 4 bytes or more) and query (the SDK may have re-spelt the URL).
func redactEndpoint(msg, raw string) string {
	if raw == "" {
		return msg
	}
	msg = strings.ReplaceAll(msg, raw, redactURL(raw))
	var parts []string
	rest := raw
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		parts = append(parts, rest[i+1:])
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		user, pass, _ := strings.Cut(rest[:at], ":")
		parts = append(parts, rest[:at], pass)
		if len(user) >= 4 {
			parts = append(parts, user)
		}
	}
	parts = slices.DeleteFunc(parts, func(p string) bool { return p == "" || p == hidden })
	slices.SortFunc(parts, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, p := range parts {
		msg = strings.ReplaceAll(msg, p, hidden)
	}
	return msg
}

// redactURL is raw with its userinfo and its query (and fragment)
// replaced by xxxxx, read without parsing (an endpoint the SDK rejects
// may not parse): http://xxxxx@host:9000/path?xxxxx.
func redactURL(raw string) string {
	scheme, rest := "", raw
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, rest = raw[:i+3], raw[i+3:]
	}
	tail := ""
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest, tail = rest[:i], rest[i:i+1]+hidden
	}
	host, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = hidden + host[at:]
	}
	return scheme + host + path + tail
}
