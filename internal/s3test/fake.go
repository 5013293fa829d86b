package s3test

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Fake starts an in-memory S3 server on loopback for t: path-style
// buckets and objects, ListObjectsV2 (URL-encoded keys), ranged GET,
// HEAD, PUT with If-None-Match: * and If-Match, DeleteObject with
// If-Match, DeleteObjects with per-key ETags, and the bucket calls a
// test needs. It honours every condition and checks no signature: it is
// the engine behind a FaultProxy where a server must act one way and
// answer another, and needs neither SeaweedFS nor PLANGATE_GC_LONG.
func Fake(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{buckets: map[string]map[string]*fakeObject{}}
	srv := &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close(); <-done })
	return &Server{Endpoint: "http://" + ln.Addr().String(), Region: "us-east-1", AccessKey: "AKIAFAKE", SecretKey: "fake-secret"}
}

type fakeObject struct {
	data []byte
	etag string
	mod  time.Time
}

type fake struct {
	mu      sync.Mutex
	buckets map[string]map[string]*fakeObject
}

// ServeHTTP answers one request.
func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		writeS3Error(w, http.StatusBadRequest, "InvalidRequest", err.Error())
		return
	}
	kind, bucket, key := classify(r)
	f.mu.Lock()
	defer f.mu.Unlock()
	objs, ok := f.buckets[bucket]
	if key == "" && kind == KindOther {
		f.bucketCall(w, r, bucket, ok)
		return
	}
	if !ok {
		writeS3Error(w, http.StatusNotFound, "NoSuchBucket", "no bucket "+bucket)
		return
	}
	switch kind {
	case KindList:
		fakeList(w, r.URL.Query(), bucket, objs)
	case KindListVersions:
		fakeVersions(w, objs)
	case KindGet, KindHead:
		fakeGet(w, r, objs[key])
	case KindPut:
		f.put(w, r, objs, key, body)
	case KindDelete:
		o := objs[key]
		if m := r.Header.Get("If-Match"); m != "" && (o == nil || o.etag != m) {
			writeS3Error(w, http.StatusPreconditionFailed, "PreconditionFailed", "If-Match")
			return
		}
		delete(objs, key)
		w.WriteHeader(http.StatusNoContent)
	case KindDeleteBatch:
		fakeDeleteBatch(w, objs, body)
	default:
		writeS3Error(w, http.StatusNotImplemented, "NotImplemented", r.Method+" "+r.URL.String())
	}
}

// bucketCall creates, removes, probes or reads the versioning of a bucket.
func (f *fake) bucketCall(w http.ResponseWriter, r *http.Request, bucket string, exists bool) {
	q := r.URL.Query()
	switch {
	case r.Method == http.MethodPut && len(q) == 0:
		if !exists {
			f.buckets[bucket] = map[string]*fakeObject{}
		}
		w.WriteHeader(http.StatusOK)
	case !exists:
		writeS3Error(w, http.StatusNotFound, "NoSuchBucket", "no bucket "+bucket)
	case r.Method == http.MethodDelete:
		delete(f.buckets, bucket)
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && has(q, "versioning"):
		writeXML(w, http.StatusOK, struct {
			XMLName xml.Name `xml:"VersioningConfiguration"`
		}{})
	case r.Method == http.MethodHead:
		w.WriteHeader(http.StatusOK)
	default:
		writeS3Error(w, http.StatusNotImplemented, "NotImplemented", r.Method+" "+r.URL.String())
	}
}

func (f *fake) put(w http.ResponseWriter, r *http.Request, objs map[string]*fakeObject, key string, body []byte) {
	o := objs[key]
	if (r.Header.Get("If-None-Match") == "*" && o != nil) || (r.Header.Get("If-Match") != "" && (o == nil || o.etag != r.Header.Get("If-Match"))) {
		writeS3Error(w, http.StatusPreconditionFailed, "PreconditionFailed", "condition")
		return
	}
	sum := md5.Sum(body)
	o = &fakeObject{data: body, etag: `"` + hex.EncodeToString(sum[:]) + `"`, mod: time.Now().UTC().Truncate(time.Millisecond)}
	objs[key] = o
	w.Header().Set("ETag", o.etag)
	w.WriteHeader(http.StatusOK)
}

func fakeGet(w http.ResponseWriter, r *http.Request, o *fakeObject) {
	if o == nil {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		writeS3Error(w, http.StatusNotFound, "NoSuchKey", "no such key")
		return
	}
	w.Header().Set("ETag", o.etag)
	w.Header().Set("Last-Modified", o.mod.Format(http.TimeFormat))
	data, status := o.data, http.StatusOK
	if rg, ok := strings.CutPrefix(r.Header.Get("Range"), "bytes=0-"); ok {
		if len(o.data) == 0 {
			writeS3Error(w, http.StatusRequestedRangeNotSatisfiable, "InvalidRange", "empty object")
			return
		}
		end, _ := strconv.Atoi(rg)
		data, status = data[:min(len(data), end+1)], http.StatusPartialContent
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(data)-1, len(o.data)))
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

// fakeList is ListObjectsV2: keys after the continuation token (a key),
// in byte order, up to max-keys.
func fakeList(w http.ResponseWriter, q url.Values, bucket string, objs map[string]*fakeObject) {
	type content struct {
		Key, LastModified, ETag string
		Size                    int
	}
	res := struct {
		XMLName               xml.Name `xml:"ListBucketResult"`
		Name, Prefix          string
		KeyCount, MaxKeys     int
		EncodingType          string `xml:",omitempty"`
		IsTruncated           bool
		ContinuationToken     string `xml:",omitempty"`
		NextContinuationToken string `xml:",omitempty"`
		Contents              []content
	}{Name: bucket, Prefix: q.Get("prefix"), MaxKeys: 1000, EncodingType: q.Get("encoding-type"), ContinuationToken: q.Get("continuation-token")}
	if n, err := strconv.Atoi(q.Get("max-keys")); err == nil && n > 0 && n < 1000 {
		res.MaxKeys = n
	}
	after := q.Get("continuation-token")
	for _, k := range sortedKeys(objs) {
		if !strings.HasPrefix(k, res.Prefix) || k <= after {
			continue
		}
		if len(res.Contents) == res.MaxKeys {
			res.IsTruncated, res.NextContinuationToken = true, res.Contents[len(res.Contents)-1].Key
			break
		}
		o := objs[k]
		res.Contents = append(res.Contents, content{Key: k, LastModified: o.mod.Format("2006-01-02T15:04:05.000Z"), ETag: o.etag, Size: len(o.data)})
	}
	res.KeyCount = len(res.Contents)
	if res.EncodingType == "url" {
		for i := range res.Contents {
			res.Contents[i].Key = url.QueryEscape(res.Contents[i].Key)
		}
		res.NextContinuationToken = url.QueryEscape(res.NextContinuationToken)
	}
	writeXML(w, http.StatusOK, res)
}

// fakeVersions lists every object as its one version ("null").
func fakeVersions(w http.ResponseWriter, objs map[string]*fakeObject) {
	type version struct{ Key, VersionId string }
	res := struct {
		XMLName  xml.Name  `xml:"ListVersionsResult"`
		Versions []version `xml:"Version"`
	}{}
	for _, k := range sortedKeys(objs) {
		if len(res.Versions) < 1000 {
			res.Versions = append(res.Versions, version{Key: k, VersionId: "null"})
		}
	}
	writeXML(w, http.StatusOK, res)
}

func fakeDeleteBatch(w http.ResponseWriter, objs map[string]*fakeObject, body []byte) {
	type keyErr struct{ Key, Code, Message string }
	res := struct {
		XMLName xml.Name `xml:"DeleteResult"`
		Deleted []struct{ Key string }
		Error   []keyErr
	}{}
	for _, d := range batchKeys(body) {
		o := objs[d.Key]
		switch {
		case d.ETag != "" && o == nil:
			res.Error = append(res.Error, keyErr{d.Key, "NoSuchKey", "no such key"})
		case d.ETag != "" && o.etag != d.ETag:
			res.Error = append(res.Error, keyErr{d.Key, "PreconditionFailed", "ETag"})
		default:
			delete(objs, d.Key)
			res.Deleted = append(res.Deleted, struct{ Key string }{d.Key})
		}
	}
	writeXML(w, http.StatusOK, res)
}

func sortedKeys(objs map[string]*fakeObject) []string {
	ks := make([]string, 0, len(objs))
	for k := range objs {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func writeXML(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	if err := xml.NewEncoder(&b).Encode(v); err != nil {
		writeS3Error(w, http.StatusInternalServerError, "InternalError", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// readBody reads a request's body, decoding the SDK's aws-chunked
// streaming form (a checksum trailer) when it is sent.
func readBody(r *http.Request) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil || len(raw) > MaxBody {
		return nil, fmt.Errorf("reading the body: %v", err)
	}
	if !strings.Contains(r.Header.Get("Content-Encoding"), "aws-chunked") && !strings.HasPrefix(r.Header.Get("X-Amz-Content-Sha256"), "STREAMING-") {
		return raw, nil
	}
	var out []byte
	br := bufio.NewReader(bytes.NewReader(raw))
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("aws-chunked body: %v", err)
		}
		size, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		n, err := strconv.ParseInt(size, 16, 64)
		if err != nil {
			return nil, fmt.Errorf("aws-chunked size %q", size)
		}
		if n == 0 {
			return out, nil
		}
		chunk := make([]byte, n+2)
		if _, err := io.ReadFull(br, chunk); err != nil {
			return nil, fmt.Errorf("aws-chunked chunk: %v", err)
		}
		out = append(out, chunk[:n]...)
	}
}
