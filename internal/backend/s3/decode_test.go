package s3

import (
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// page is a ListObjectsV2 answer holding keys, URL-encoded or not.
func page(encoded bool, keys ...string) *s3.ListObjectsV2Output {
	out := &s3.ListObjectsV2Output{}
	if encoded {
		out.EncodingType = types.EncodingTypeUrl
	}
	for _, k := range keys {
		out.Contents = append(out.Contents, types.Object{Key: aws.String(k)})
	}
	return out
}

// TestDecodeKeys: an encoded page is decoded ('+' is a
// space, %2B a plus, %01 U+0001); a page the server did not encode is
// taken as it is ('+' stays a plus); a key outside the prefix, or one
// that does not decode, makes the page a lie.
func TestDecodeKeys(t *testing.T) {
	for _, tc := range []struct {
		name string
		page *s3.ListObjectsV2Output
		want []string
		err  bool
	}{
		{"encoded", page(true, "p/a+b", "p/a%2Bb", "p/a%01b", "p/%E6%97%A5"), []string{"p/a b", "p/a+b", "p/a\x01b", "p/日"}, false},
		{"raw", page(false, "p/a+b", "p/a%2Bb"), []string{"p/a+b", "p/a%2Bb"}, false},
		{"outside the prefix", page(true, "p/a", "q/b"), nil, true},
		{"not encoded right", page(true, "p/a%zz"), nil, true},
	} {
		err := decodeKeys(tc.page, "p/")
		if tc.err {
			if !errors.Is(err, ErrListing) {
				t.Errorf("%s: %v, want ErrListing", tc.name, err)
			}
			continue
		}
		var got []string
		for _, o := range tc.page.Contents {
			got = append(got, aws.ToString(o.Key))
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestXMLSafe: the characters XML 1.0 carries (TAB, LF, CR, the rest
// from U+0020, U+0085 and U+2028 escaped) are safe; C0 controls,
// invalid UTF-8 and U+FFFE are not.
func TestXMLSafe(t *testing.T) {
	for key, want := range map[string]bool{
		"a b": true, "a\tb\nc\rd": true, "a\u0085\u2028": true, "\U0001F600": true, "a\uFFFDb": true,
		"a\x01b": false, "a\x1bb": false, "a\xffb": false, "a\uFFFEb": false, "a\x00b": false,
	} {
		if got := xmlSafe(key); got != want {
			t.Errorf("xmlSafe(%q) = %v, want %v", key, got, want)
		}
	}
}
