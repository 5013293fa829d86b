package s3

import (
	"bufio"
	"cmp"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// hidden stands for the parts of an endpoint that may carry credentials.
const hidden = "xxxxx"

// endpointVarPrefix starts every variable the SDK takes an endpoint URL
// from: AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_STS (the
// credential chain's), …
const endpointVarPrefix = "AWS_ENDPOINT_URL"

// fileEndpoints holds the endpoint_url values of the shared AWS config
// files, read by Open (readFileEndpoints) before the SDK reads them.
var fileEndpoints struct {
	sync.Mutex
	urls []string
}

// configuredEndpoints returns every endpoint the SDK may have been given:
// the environment's (read now) and the shared config files' (as Open
// read them).
func configuredEndpoints() []string {
	var urls []string
	for _, kv := range os.Environ() {
		if name, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(name, endpointVarPrefix) && v != "" {
			urls = append(urls, v)
		}
	}
	fileEndpoints.Lock()
	defer fileEndpoints.Unlock()
	return append(urls, fileEndpoints.urls...)
}

// maxConfigFile bounds how much of a shared config file is scanned for
// endpoints (real ones are a few KiB).
const maxConfigFile = 4 << 20

// readFileEndpoints records the endpoint_url values of the shared config
// and credentials files the SDK reads (AWS_CONFIG_FILE and
// AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/config and ~/.aws/credentials):
// of every profile and every services section, not only the profile in
// use, so that whichever one the SDK picks, and echoes in an error, is
// hidden. A file that cannot be read adds nothing (the SDK then fails on
// it too, without an endpoint to echo).
func readFileEndpoints() {
	home, _ := os.UserHomeDir()
	var urls []string
	for _, f := range []struct{ env, def string }{
		{"AWS_CONFIG_FILE", filepath.Join(home, ".aws", "config")},
		{"AWS_SHARED_CREDENTIALS_FILE", filepath.Join(home, ".aws", "credentials")},
	} {
		name := cmp.Or(os.Getenv(f.env), f.def)
		if name == "" || (home == "" && os.Getenv(f.env) == "") {
			continue
		}
		if file, err := os.Open(name); err == nil {
			urls = append(urls, iniEndpoints(io.LimitReader(file, maxConfigFile))...)
			file.Close()
		}
	}
	fileEndpoints.Lock()
	fileEndpoints.urls = urls
	fileEndpoints.Unlock()
}

// iniEndpoints returns the values of the endpoint_url keys of an AWS
// shared config file, at any indentation (a services section nests them
// under the service's name). A value is taken whole and, in case the
// SDK reads a trailing comment off it, also cut before " #" or " ;".
func iniEndpoints(r io.Reader) []string {
	var urls []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxConfigFile)
	for sc.Scan() {
		key, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "endpoint_url") {
			continue
		}
		v = strings.TrimSpace(v)
		urls = append(urls, v)
		if i := strings.IndexAny(v, "#;"); i > 0 {
			urls = append(urls, strings.TrimSpace(v[:i]))
		}
	}
	return slices.DeleteFunc(urls, func(u string) bool { return u == "" })
}

// redactedError is an error whose text has the configured endpoints'
// userinfo and query hidden; errors.Is and errors.As see the original.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redact hides, in err's text, the userinfo and the query of every
// endpoint configured in the environment or the shared config files (the
// SDK echoes an endpoint it rejects whole): credentials never appear in
// any output (SPEC H1).
func redact(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	out := msg
	urls := configuredEndpoints()
	slices.SortFunc(urls, func(a, b string) int { return cmp.Compare(len(b), len(a)) }) // a longer one first: one may hold another
	for _, u := range urls {
		out = redactEndpoint(out, u)
	}
	for _, v := range knownSecrets() {
		out = strings.ReplaceAll(out, v, hidden)
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
