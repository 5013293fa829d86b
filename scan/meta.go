package scan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/rfc3339"

	"golang.org/x/sys/unix"
)

// MetadataByteCap is the most bytes scan reads from one *.json file to find
// its metadata timestamp. Artifacts that carry a timestamp are small
// documents; a bigger file (embeddings, snapshots) is judged by its mtime
// without being read, which bounds the time and memory a scan can spend.
const MetadataByteCap = 1 << 20

// The recognised fields in precedence order (SPEC Part B): the first one
// that is present and parses as RFC 3339 wins, whatever their order in the
// file.
const (
	fieldTimestamp   = iota // top-level "timestamp" (Review Artifact, eval ledger)
	fieldUpdatedAt          // "metadata": {"updatedAt"} (Riverbed entries)
	fieldCreatedAt          // "metadata": {"createdAt"} (Riverbed entries)
	fieldGeneratedAt        // top-level "generatedAt" (Riverbed index)
	numFields
)

// stamp is the outcome of reading one file's metadata.
type stamp struct {
	sec int64
	ok  bool
}

// errAmbiguous marks a document in which a recognised key occurs twice.
var errAmbiguous = errors.New("a timestamp field occurs more than once")

// fileMetadata reads the metadata timestamp of the regular file
// dirfd/nameZ, which statx described as st. It returns a reason (and the
// system error, if any) when the file could not be used (too big,
// unopenable, changed, not JSON), and ok=false without a reason when the
// JSON simply has no usable field. The file is opened with
// O_NOFOLLOW|O_NONBLOCK and re-checked on the descriptor, so a name
// swapped for a symlink or FIFO is never followed and an open never blocks.
func (w *walker) fileMetadata(dirfd int, nameZ *byte, st *unix.Statx_t) (stamp, MetaReason, error) {
	if st.Size > MetadataByteCap {
		return stamp{}, ReasonTooLarge, nil
	}
	fd, err := openatZ(dirfd, nameZ, openFileFlags)
	if err != nil {
		return stamp{}, ReasonOpen, err
	}
	defer unix.Close(fd)
	var now unix.Statx_t
	if err := fstatx(fd, &now); err != nil {
		return stamp{}, ReasonStat, err
	}
	if now.Mode&unix.S_IFMT != unix.S_IFREG || devOf(&now) != devOf(st) || now.Ino != st.Ino {
		return stamp{}, ReasonReplaced, nil
	}
	r := &fdReader{fd: fd, left: MetadataByteCap + 1}
	ts, err := parseMetadata(r)
	switch {
	case r.left <= 0:
		return stamp{}, ReasonGrew, nil
	case r.err != nil:
		return stamp{}, ReasonRead, r.err
	case errors.Is(err, errAmbiguous):
		return stamp{}, ReasonAmbiguous, nil
	case err != nil:
		return stamp{}, ReasonInvalid, nil
	}
	return ts, "", nil
}

// fdReader reads from a raw descriptor, at most left bytes; reading the
// byte after the cap (left reaching 0) is how the caller detects a file
// that grew beyond MetadataByteCap after fstat. err keeps an I/O error
// apart from JSON syntax errors.
type fdReader struct {
	fd   int
	left int64
	err  error
}

func (r *fdReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := eintr.Value(func() (int, error) { return unix.Read(r.fd, p) })
	if err != nil {
		r.err = err
		return 0, err
	}
	if n == 0 {
		return 0, io.EOF
	}
	r.left -= int64(n)
	return n, nil
}

// parseMetadata reads one JSON document from r with a streaming tokenizer
// and returns the metadata timestamp. A nil error with ok=false means a
// well-formed object without a usable field. Any other problem — not a
// single top-level object, a syntax error, trailing data, a recognised key
// that occurs twice — is an error, and the caller falls back to mtime.
// Only the top level and the object "metadata" are inspected; every other
// value is skipped token by token, never materialised.
func parseMetadata(r io.Reader) (stamp, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber() // 1e400 is valid JSON; do not let float parsing reject it
	var found [numFields]stamp
	var seen [numFields]bool
	seenMetadata := false
	if err := expectDelim(dec, '{'); err != nil {
		return stamp{}, err
	}
	for dec.More() {
		key, err := readKey(dec)
		if err != nil {
			return stamp{}, err
		}
		switch key {
		case "timestamp":
			err = readField(dec, fieldTimestamp, &found, &seen)
		case "generatedAt":
			err = readField(dec, fieldGeneratedAt, &found, &seen)
		case "metadata":
			if seenMetadata {
				return stamp{}, errAmbiguous
			}
			seenMetadata = true
			err = readMetadataObject(dec, &found, &seen)
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return stamp{}, err
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return stamp{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the top-level object")
		}
		return stamp{}, err
	}
	for _, s := range found {
		if s.ok {
			return s, nil
		}
	}
	return stamp{}, nil
}

// readMetadataObject consumes the value of "metadata". Only when it is an
// object are its "updatedAt" and "createdAt" members considered.
func readMetadataObject(dec *json.Decoder, found *[numFields]stamp, seen *[numFields]bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return skipRest(dec, tok)
	}
	for dec.More() {
		key, err := readKey(dec)
		if err != nil {
			return err
		}
		switch key {
		case "updatedAt":
			err = readField(dec, fieldUpdatedAt, found, seen)
		case "createdAt":
			err = readField(dec, fieldCreatedAt, found, seen)
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return err
		}
	}
	return expectDelim(dec, '}')
}

// readField consumes the value of a recognised key and records it when it
// is a string that parses as RFC 3339 (internal/rfc3339: the RFC's grammar,
// floored to whole seconds, also before 1970).
func readField(dec *json.Decoder, i int, found *[numFields]stamp, seen *[numFields]bool) error {
	if seen[i] {
		return errAmbiguous
	}
	seen[i] = true
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if s, isString := tok.(string); isString {
		if sec, ok := rfc3339.Unix(s); ok {
			found[i] = stamp{sec: sec, ok: true}
		}
		return nil
	}
	return skipRest(dec, tok)
}

func readKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	key, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("unexpected %v where an object key belongs", tok)
	}
	return key, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("expected %v, found %v", want, tok)
	}
	return nil
}

// skipValue consumes one complete value.
func skipValue(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	return skipRest(dec, tok)
}

// skipRest consumes the rest of a value whose first token is tok: nothing
// for a scalar, up to the matching close for an array or object.
func skipRest(dec *json.Decoder, tok json.Token) error {
	if d, ok := tok.(json.Delim); !ok || (d != '{' && d != '[') {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}
