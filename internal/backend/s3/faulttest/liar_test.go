package faulttest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// liar is a reverse proxy of this package's own (not s3test's) that
// forwards every request to the engine untouched (the client's signature
// stays valid: method, path, query, headers and Host are kept) and then
// lets a lie rewrite the answer, or answers itself. It counts the keys
// the engine really deleted, from the engine's own DeleteObjects answers,
// before any lie is told about them.
type liar struct {
	URL    string
	target string
	lie    func(l *liar, r *http.Request, body []byte) (status int, header http.Header, answer []byte, ok bool)

	mu       sync.Mutex
	deleted  map[string]int
	requests int
	pages    map[string]*listing // ListObjectsV2 answers, by prefix
}

// listing is one real ListObjectsV2 page, kept to be served again in
// pages of the liar's making.
type listing struct {
	Contents []listEntry
}

// listEntry is one object of a listing.
type listEntry struct {
	Key          string
	LastModified string
	ETag         string
	Size         int64
	StorageClass string
}

// newLiar starts a liar in front of endpoint on loopback; it stops with t.
func newLiar(t *testing.T, endpoint string, lie func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool)) *liar {
	t.Helper()
	l := &liar{target: endpoint, lie: lie, deleted: map[string]int{}, pages: map[string]*listing{}}
	s := httptest.NewServer(http.HandlerFunc(l.serve))
	t.Cleanup(s.Close)
	l.URL = s.URL
	return l
}

// serve answers one request: the lie's own answer, or the engine's
// (counted), possibly rewritten by the lie.
func (l *liar) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	l.mu.Lock()
	l.requests++
	l.mu.Unlock()
	if status, h, answer, ok := l.lie(l, r, body); ok {
		for k, v := range h {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		w.Write(answer)
		return
	}
	status, h, answer, err := l.forward(r, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	for k, v := range h {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	w.Write(answer)
}

// forward sends r to the engine as it came and returns the engine's
// answer; the keys a DeleteObjects answer names as deleted are counted.
func (l *liar) forward(r *http.Request, body []byte) (int, http.Header, []byte, error) {
	req, err := http.NewRequest(r.Method, l.target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header = r.Header.Clone()
	req.Host = r.Host
	req.ContentLength = int64(len(body))
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	if isBatchDelete(r) {
		var res struct {
			Deleted []struct{ Key string }
		}
		xml.Unmarshal(answer, &res)
		l.mu.Lock()
		for _, d := range res.Deleted {
			l.deleted[d.Key]++
		}
		l.mu.Unlock()
	}
	h := resp.Header.Clone()
	h.Del("Content-Length")
	return resp.StatusCode, h, answer, nil
}

// isBatchDelete reports whether r is a DeleteObjects request.
func isBatchDelete(r *http.Request) bool {
	_, ok := r.URL.Query()["delete"]
	return r.Method == http.MethodPost && ok
}

// isList reports whether r is a ListObjectsV2 request.
func isList(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Query().Get("list-type") == "2"
}

// realDeleted returns how often the engine deleted each key (bucket keys).
func (l *liar) realDeleted() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int{}
	for k, n := range l.deleted {
		out[k] = n
	}
	return out
}

// realPage forwards a list request once per prefix (the first page, up
// to 1000 keys: enough for these trees) and keeps its entries.
func (l *liar) realPage(r *http.Request, body []byte) (*listing, error) {
	prefix := r.URL.Query().Get("prefix")
	l.mu.Lock()
	got := l.pages[prefix]
	l.mu.Unlock()
	if got != nil {
		return got, nil
	}
	status, _, answer, err := l.forward(r, body)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("list: HTTP %d", status)
	}
	var res listing
	if err := xml.Unmarshal(answer, &res); err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.pages[prefix] = &res
	l.mu.Unlock()
	return &res, nil
}

// listAnswer writes a ListObjectsV2 answer holding entries, truncated
// (with next as its token when next is not empty) or not.
func listAnswer(r *http.Request, entries []listEntry, truncated bool, next string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">`)
	q := r.URL.Query()
	fmt.Fprintf(&b, "<Name>%s</Name><Prefix>%s</Prefix><KeyCount>%d</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>%v</IsTruncated>",
		esc(strings.Trim(r.URL.Path, "/")), esc(q.Get("prefix")), len(entries), truncated)
	if tok := q.Get("continuation-token"); tok != "" {
		fmt.Fprintf(&b, "<ContinuationToken>%s</ContinuationToken>", esc(tok))
	}
	if next != "" {
		fmt.Fprintf(&b, "<NextContinuationToken>%s</NextContinuationToken>", esc(next))
	}
	for _, e := range entries {
		fmt.Fprintf(&b, "<Contents><Key>%s</Key><LastModified>%s</LastModified><ETag>%s</ETag><Size>%d</Size><StorageClass>STANDARD</StorageClass></Contents>",
			esc(e.Key), esc(e.LastModified), esc(e.ETag), e.Size)
	}
	b.WriteString("</ListBucketResult>")
	return []byte(b.String())
}

// esc escapes s for XML text.
func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// xmlHeader is the header of the liar's own XML answers.
func xmlHeader() http.Header { return http.Header{"Content-Type": {"application/xml"}} }

// pageNumber reads the liar's own continuation token "liar-N" (0 for the
// first request).
func pageNumber(r *http.Request) int {
	n := 0
	fmt.Sscanf(r.URL.Query().Get("continuation-token"), "liar-%d", &n)
	return n
}
