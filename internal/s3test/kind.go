package s3test

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"strings"
)

// Kind names what an S3 request does, as the proxy counts it.
type Kind string

// The kinds of request the proxy tells apart (path-style addressing).
const (
	KindList         Kind = "list"         // ListObjects(V2) on a bucket
	KindListVersions Kind = "listversions" // ListObjectVersions
	KindGet          Kind = "get"          // GetObject
	KindHead         Kind = "head"         // HeadObject
	KindPut          Kind = "put"          // PutObject (CopyObject too)
	KindDelete       Kind = "delete"       // DeleteObject
	KindDeleteBatch  Kind = "deletebatch"  // DeleteObjects (POST ?delete)
	KindOther        Kind = "other"        // buckets, multipart, anything else
)

// Kinds lists every Kind in a fixed order (for reports).
var Kinds = []Kind{KindList, KindListVersions, KindGet, KindHead, KindPut, KindDelete, KindDeleteBatch, KindOther}

// classify returns r's kind, bucket and key (path style: /bucket/key).
func classify(r *http.Request) (kind Kind, bucket, key string) {
	p := strings.TrimPrefix(r.URL.Path, "/")
	bucket, key, _ = strings.Cut(p, "/")
	q := r.URL.Query()
	if bucket == "" {
		return KindOther, "", ""
	}
	if key == "" {
		switch {
		case r.Method == http.MethodGet && has(q, "versions"):
			return KindListVersions, bucket, ""
		case r.Method == http.MethodGet && onlyListParams(q):
			return KindList, bucket, ""
		case r.Method == http.MethodPost && has(q, "delete"):
			return KindDeleteBatch, bucket, ""
		}
		return KindOther, bucket, ""
	}
	if has(q, "uploads") || has(q, "uploadId") || has(q, "tagging") || has(q, "acl") {
		return KindOther, bucket, key
	}
	switch r.Method {
	case http.MethodGet:
		return KindGet, bucket, key
	case http.MethodHead:
		return KindHead, bucket, key
	case http.MethodPut:
		return KindPut, bucket, key
	case http.MethodDelete:
		return KindDelete, bucket, key
	}
	return KindOther, bucket, key
}

// has reports whether q names the parameter at all ("?delete" has no
// value).
func has(q url.Values, name string) bool {
	_, ok := q[name]
	return ok
}

// onlyListParams reports whether a bucket GET is a listing, not one of the
// bucket's configuration subresources (?versioning, ?location, …).
func onlyListParams(q url.Values) bool {
	for name := range q {
		switch name {
		case "list-type", "prefix", "delimiter", "max-keys", "continuation-token",
			"start-after", "marker", "encoding-type", "fetch-owner", "x-id":
		default:
			return false
		}
	}
	return true
}

// deleteRequest is the body of DeleteObjects.
type deleteRequest struct {
	XMLName xml.Name       `xml:"Delete"`
	Quiet   *bool          `xml:"Quiet,omitempty"`
	Objects []deleteObject `xml:"Object"`
}

// deleteObject is one key of a DeleteObjects body.
type deleteObject struct {
	Key       string `xml:"Key"`
	VersionID string `xml:"VersionId,omitempty"`
	ETag      string `xml:"ETag,omitempty"`
}

// batchKeys returns the keys and ETags a DeleteObjects body names (nil
// when it does not parse).
func batchKeys(body []byte) []deleteObject {
	var d deleteRequest
	if xml.Unmarshal(body, &d) != nil {
		return nil
	}
	return d.Objects
}
