package s3test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"
)

// Bounds of a FaultProxy: it never holds more than this much of one
// request, keeps more than this many requests in its log, or serves more
// than this many requests in its life.
const (
	MaxBody     = 64 << 20
	MaxLog      = 200_000
	MaxRequests = 4_000_000
)

// FaultProxy is a plain-http reverse proxy on 127.0.0.1 in front of an
// engine: it forwards requests (path-style S3) unchanged except where a
// Fault says otherwise, and counts them by kind. Point a client at URL.
type FaultProxy struct {
	// URL is the proxy's endpoint (http://127.0.0.1:PORT).
	URL string

	target *url.URL
	server *Server
	faults []Fault
	srv    *http.Server
	ln     net.Listener
	served chan struct{}
	client *http.Client

	mu      sync.Mutex
	hits    []int // per fault: requests it hit
	total   int
	counts  map[Kind]int
	log     []Request
	deleted map[string]int
}

// Proxy starts a FaultProxy in front of s with faults and closes it at
// t's cleanup.
func Proxy(t testing.TB, s *Server, faults ...Fault) *FaultProxy {
	t.Helper()
	p, err := NewProxy(s, faults...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// NewProxy starts a FaultProxy in front of s (whose key pair re-signs
// the requests a strip changes); Close stops it.
func NewProxy(s *Server, faults ...Fault) (*FaultProxy, error) {
	target, err := url.Parse(s.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("engine endpoint %q: %w", s.Endpoint, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &FaultProxy{
		URL:     "http://" + ln.Addr().String(),
		target:  target,
		server:  s,
		faults:  faults,
		hits:    make([]int, len(faults)),
		ln:      ln,
		served:  make(chan struct{}),
		counts:  map[Kind]int{},
		deleted: map[string]int{},
		client: &http.Client{
			Transport: &http.Transport{
				DisableCompression:    true,
				MaxIdleConnsPerHost:   64,
				ResponseHeaderTimeout: 2 * time.Minute,
				IdleConnTimeout:       30 * time.Second,
			},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second}
	go func() {
		defer close(p.served)
		p.srv.Serve(ln)
	}()
	return p, nil
}

// Close stops the proxy: its listener, every connection, and waits for
// the server loop to end.
func (p *FaultProxy) Close() {
	p.srv.Close()
	<-p.served
	p.client.CloseIdleConnections()
}

// Count returns how many requests of kind the proxy has received
// (answered, dropped or forwarded).
func (p *FaultProxy) Count(kind Kind) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts[kind]
}

// Total returns how many requests the proxy has received.
func (p *FaultProxy) Total() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.total
}

// Requests returns a copy of the proxy's log, in arrival order (at most
// MaxLog entries).
func (p *FaultProxy) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Request(nil), p.log...)
}

// Deleted returns, per key, how many times the engine answered that it
// deleted it (a 204 to DeleteObject, a <Deleted> entry of DeleteObjects):
// a key deleted twice shows a retried delete that removed something.
func (p *FaultProxy) Deleted() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := make(map[string]int, len(p.deleted))
	for k, v := range p.deleted {
		m[k] = v
	}
	return m
}

// ResetCounts zeroes the counts, the log and Deleted (not the numbering
// Nth uses), so a benchmark can count one run.
func (p *FaultProxy) ResetCounts() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counts, p.log, p.deleted = map[Kind]int{}, nil, map[string]int{}
}

// ServeHTTP handles one request: classify, count, apply the faults,
// forward.
func (p *FaultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		http.Error(w, "fault proxy: reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(body) > MaxBody {
		http.Error(w, "fault proxy: request body over MaxBody", http.StatusRequestEntityTooLarge)
		return
	}
	req, batch := describe(r, body)
	p.mu.Lock()
	p.total++
	p.counts[req.Kind]++
	req.N = p.counts[req.Kind]
	total := p.total
	p.mu.Unlock()
	if total > MaxRequests {
		p.finish(req, http.StatusServiceUnavailable, "over MaxRequests")
		writeS3Error(w, http.StatusServiceUnavailable, "ServiceUnavailable", "fault proxy: over MaxRequests")
		return
	}
	answer, strip := p.applyFaults(&req, total)
	switch {
	case answer != nil && answer.Action == ActAnswer:
		p.finish(req, answer.Status, "")
		writeS3Error(w, answer.Status, answer.Code, "fault proxy: "+answer.String())
		return
	case answer != nil && answer.Action == ActDropRequest:
		p.finish(req, 0, "")
		hangUp(w, nil)
		return
	case answer != nil && answer.Action == ActReply:
		p.finish(req, 0, "replied")
		answer.Reply(w, r, body)
		return
	}
	p.forward(w, r, req, body, batch, answer, strip)
}

// describe is what the log and the faults see of a request: its kind,
// bucket, keys (a batch delete's from its body) and conditions; batch is
// a batch delete's objects.
func describe(r *http.Request, body []byte) (req Request, batch []deleteObject) {
	kind, bucket, key := classify(r)
	req = Request{Kind: kind, Bucket: bucket, Prefix: r.URL.Query().Get("prefix")}
	if kind == KindDeleteBatch {
		batch = batchKeys(body)
		for _, o := range batch {
			req.Keys = append(req.Keys, o.Key)
			if o.ETag != "" {
				req.Conditions = append(req.Conditions, o.Key+": "+o.ETag)
			}
		}
	} else if key != "" {
		req.Keys = []string{key}
	}
	for _, h := range conditionHeaders {
		if v := r.Header.Get(h); v != "" {
			req.Conditions = append(req.Conditions, h+": "+v)
		}
	}
	return req, batch
}

// applyFaults runs the faults that hit req (the total-th request): delays
// and hooks at once; it returns the first fault that answers in the
// engine's place (or nil) and whether the conditions are to be stripped,
// and names in req.Fault what it did.
func (p *FaultProxy) applyFaults(req *Request, total int) (answer *Fault, strip bool) {
	var did []string
	for i := range p.faults {
		f := &p.faults[i]
		if !f.hits(req.Kind, req.N, total, req.Keys) || (f.When != nil && !f.When(*req)) || !p.take(i) {
			continue
		}
		switch f.Action {
		case ActDelay:
			time.Sleep(min(f.Delay, MaxDelay))
			did = append(did, f.String())
		case ActHook:
			f.Hook(*req)
			did = append(did, f.String())
		case ActStrip:
			strip = true
		default:
			if answer == nil {
				answer = f
			}
		}
	}
	if strip {
		did = append(did, "strip conditions")
	}
	if answer != nil {
		did = append(did, answer.String())
	}
	req.Fault = joinFaults(did)
	return answer, strip
}

// forward sends the request to the engine (its conditions stripped with
// strip) and its answer back, or half of it for an answer fault that
// drops the response.
func (p *FaultProxy) forward(w http.ResponseWriter, r *http.Request, req Request, body []byte, batch []deleteObject, answer *Fault, strip bool) {
	// The engine acts on a request it has received whole even when its
	// client is gone (killed, say): the forward does not hang on the
	// client's connection.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := p.outgoing(ctx, r, body, batch, strip)
	if err != nil {
		p.finish(req, http.StatusBadGateway, "")
		http.Error(w, "fault proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	resp, err := p.client.Do(out)
	if err != nil {
		p.finish(req, http.StatusBadGateway, "")
		http.Error(w, "fault proxy: the engine: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	respBody, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody))
	if err != nil {
		p.finish(req, 0, "")
		hangUp(w, nil)
		return
	}
	p.countDeleted(req.Kind, req.Keys, resp.StatusCode, respBody)
	if answer != nil && answer.Action == ActDropResponse {
		p.finish(req, 0, "")
		hangUp(w, halfResponse(resp, respBody))
		return
	}
	p.finish(req, resp.StatusCode, "")
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(respBody)
}

// take counts a hit of fault i and reports whether it is within the
// fault's Limit.
func (p *FaultProxy) take(i int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.faults[i].Limit > 0 && p.hits[i] >= p.faults[i].Limit {
		return false
	}
	p.hits[i]++
	return true
}

// conditionHeaders are the request headers that make a write or delete
// conditional.
var conditionHeaders = []string{"If-Match", "If-None-Match", "If-Modified-Since", "If-Unmodified-Since"}

// finish logs req with the status the client got.
func (p *FaultProxy) finish(req Request, status int, note string) {
	req.Status = status
	if note != "" {
		req.Fault = joinFaults([]string{req.Fault, note})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.log) < MaxLog {
		p.log = append(p.log, req)
	}
}

// countDeleted records what the engine said it deleted.
func (p *FaultProxy) countDeleted(kind Kind, keys []string, status int, body []byte) {
	var gone []string
	switch {
	case kind == KindDelete && status == http.StatusNoContent:
		gone = keys
	case kind == KindDeleteBatch && status == http.StatusOK:
		var res struct {
			Deleted []struct{ Key string } `xml:"Deleted"`
		}
		if xml.Unmarshal(body, &res) == nil {
			for _, d := range res.Deleted {
				gone = append(gone, d.Key)
			}
		}
	}
	if len(gone) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, k := range gone {
		p.deleted[k]++
	}
}

// hangUp takes the client's connection from the HTTP server, writes
// partial (if any) and closes it.
func hangUp(w http.ResponseWriter, partial []byte) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler) // net/http then closes the connection
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if len(partial) > 0 {
		conn.Write(partial)
	}
	conn.Close()
}

// halfResponse is the first half of resp as it would go on the wire.
func halfResponse(resp *http.Response, body []byte) []byte {
	var buf bytes.Buffer
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.TransferEncoding = nil
	resp.Write(&buf)
	return buf.Bytes()[:buf.Len()/2]
}

// writeS3Error answers as S3 does when it fails a request.
func writeS3Error(w http.ResponseWriter, status int, code, message string) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	xml.NewEncoder(&b).Encode(struct {
		XMLName xml.Name `xml:"Error"`
		Code    string
		Message string
	}{Code: code, Message: message})
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("Content-Length", fmt.Sprint(b.Len()))
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// joinFaults joins the non-empty names with "; ".
func joinFaults(names []string) string {
	s := ""
	for _, n := range names {
		if n == "" {
			continue
		}
		if s != "" {
			s += "; "
		}
		s += n
	}
	return s
}

// outgoing builds the request to the engine: same method, path, query,
// headers (hop-by-hop ones dropped) and Host (the client signed the
// proxy's host), stripped and re-signed where strip says so.
func (p *FaultProxy) outgoing(ctx context.Context, r *http.Request, body []byte, batch []deleteObject, strip bool) (*http.Request, error) {
	u := *p.target
	u.Path, u.RawPath, u.RawQuery = r.URL.Path, r.URL.RawPath, r.URL.RawQuery
	out, err := http.NewRequestWithContext(ctx, r.Method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	out.Header = r.Header.Clone()
	for _, h := range []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"} {
		out.Header.Del(h)
	}
	out.Host = r.Host
	if strip {
		if body, err = p.strip(out, body, batch); err != nil {
			return nil, err
		}
	}
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return out, nil
}
