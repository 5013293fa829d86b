//go:build linux

package scan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/plangate-gc/plangate-gc/internal/rfc3339"
)

// parseMetadataRef is the earlier streaming implementation (encoding/json
// tokens), kept as the oracle parseMetadata is fuzzed against. It reads one JSON document from r with a streaming tokenizer
// and returns the metadata timestamp. A nil error with ok=false means a
// well-formed object without a usable field. Any other problem — not a
// single top-level object, a syntax error, trailing data, a recognised key
// that occurs twice — is an error, and the caller falls back to mtime.
// Only the top level and the object "metadata" are inspected; every other
// value is skipped token by token, never materialised.
func parseMetadataRef(r io.Reader) (stamp, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber() // 1e400 is valid JSON; do not let float parsing reject it
	var found [numFields]stamp
	var seen [numFields]bool
	seenMetadata := false
	if err := expectDelimRef(dec, '{'); err != nil {
		return stamp{}, err
	}
	for dec.More() {
		key, err := readKeyRef(dec)
		if err != nil {
			return stamp{}, err
		}
		switch key {
		case "timestamp":
			err = readFieldRef(dec, fieldTimestamp, &found, &seen)
		case "generatedAt":
			err = readFieldRef(dec, fieldGeneratedAt, &found, &seen)
		case "metadata":
			if seenMetadata {
				return stamp{}, errAmbiguous
			}
			seenMetadata = true
			err = readMetadataObjectRef(dec, &found, &seen)
		default:
			err = skipValueRef(dec)
		}
		if err != nil {
			return stamp{}, err
		}
	}
	if err := expectDelimRef(dec, '}'); err != nil {
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
func readMetadataObjectRef(dec *json.Decoder, found *[numFields]stamp, seen *[numFields]bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return skipRestRef(dec, tok)
	}
	for dec.More() {
		key, err := readKeyRef(dec)
		if err != nil {
			return err
		}
		switch key {
		case "updatedAt":
			err = readFieldRef(dec, fieldUpdatedAt, found, seen)
		case "createdAt":
			err = readFieldRef(dec, fieldCreatedAt, found, seen)
		default:
			err = skipValueRef(dec)
		}
		if err != nil {
			return err
		}
	}
	return expectDelimRef(dec, '}')
}

// readField consumes the value of a recognised key and records it when it
// is a string that parses as RFC 3339 (internal/rfc3339: the RFC's grammar,
// floored to whole seconds, also before 1970).
func readFieldRef(dec *json.Decoder, i int, found *[numFields]stamp, seen *[numFields]bool) error {
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
	return skipRestRef(dec, tok)
}

func readKeyRef(dec *json.Decoder) (string, error) {
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

func expectDelimRef(dec *json.Decoder, want json.Delim) error {
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
func skipValueRef(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	return skipRestRef(dec, tok)
}

// skipRest consumes the rest of a value whose first token is tok: nothing
// for a scalar, up to the matching close for an array or object.
func skipRestRef(dec *json.Decoder, tok json.Token) error {
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
