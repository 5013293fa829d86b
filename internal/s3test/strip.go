package s3test

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// strip removes every condition from out (and from a DeleteObjects body,
// whose checksums it then recomputes) and signs out anew with the
// engine's key pair, returning the body to send. A signature covers the
// condition headers and the body's hash, so a stripped request must be
// re-signed to pass as the client's.
func (p *FaultProxy) strip(out *http.Request, body []byte, batch []deleteObject) ([]byte, error) {
	for _, h := range conditionHeaders {
		out.Header.Del(h)
	}
	payloadHash := out.Header.Get("X-Amz-Content-Sha256")
	if batch != nil {
		for i := range batch {
			batch[i].ETag = ""
		}
		var quiet *bool
		var d deleteRequest
		if xml.Unmarshal(body, &d) == nil {
			quiet = d.Quiet
		}
		b, err := xml.Marshal(deleteRequest{Quiet: quiet, Objects: batch})
		if err != nil {
			return nil, fmt.Errorf("re-encoding a stripped DeleteObjects body: %w", err)
		}
		body = b
		for k := range out.Header {
			if strings.HasPrefix(strings.ToLower(k), "x-amz-checksum-") || strings.EqualFold(k, "X-Amz-Sdk-Checksum-Algorithm") {
				out.Header.Del(k)
			}
		}
		sum := md5.Sum(body)
		out.Header.Set("Content-Md5", base64.StdEncoding.EncodeToString(sum[:]))
		hash := sha256.Sum256(body)
		payloadHash = hex.EncodeToString(hash[:])
		out.Header.Set("X-Amz-Content-Sha256", payloadHash)
	}
	if payloadHash == "" {
		hash := sha256.Sum256(body)
		payloadHash = hex.EncodeToString(hash[:])
		out.Header.Set("X-Amz-Content-Sha256", payloadHash)
	}
	out.Header.Del("Authorization")
	out.Header.Del("X-Amz-Date")
	out.ContentLength = int64(len(body))
	creds := aws.Credentials{AccessKeyID: p.server.AccessKey, SecretAccessKey: p.server.SecretKey}
	err := v4.NewSigner().SignHTTP(out.Context(), creds, out, payloadHash, "s3", p.server.Region, time.Now().UTC())
	if err != nil {
		return nil, fmt.Errorf("re-signing a stripped request: %w", err)
	}
	return bytes.Clone(body), nil
}
