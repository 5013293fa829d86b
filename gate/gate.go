// Package gate is the pre-execution gate of plangate-gc-deterministic
// (SPEC A2): it reads JSON documents from a stream, enforces the I-JSON
// profile and the input schema, and turns each valid document into a
// skill.Input.
//
// A document that fails is not an error of the program but a verdict
// (NO_REVIEW); gate returns it as an *Error value whose problems are sorted,
// so the same bad input always yields the same text. Gate never judges and
// never words anything for humans beyond the technical reason.
package gate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/skill"
)

// Code classifies why a document failed the gate; codes are stable.
type Code string

// Gate failure codes.
const (
	CodeEmpty          Code = "empty-input"
	CodeSyntax         Code = "syntax"
	CodeUTF8           Code = "invalid-utf8"
	CodeDuplicateKey   Code = "duplicate-key"
	CodeDepth          Code = "too-deep"
	CodeSchema         Code = "schema"
	CodeMalformedGlob  Code = "malformed-exclude"
	CodeProblemsCapped Code = "more-problems"
)

// Problem is one reason a document failed: where (a JSON pointer into the
// document; "" is the whole document) and why.
type Problem struct {
	Code    Code
	Pointer string
	Message string
}

// maxProblems bounds the reasons reported for one document: a million bad
// entries should not produce a million lines.
const maxProblems = 100

// Error is the gate verdict for one document: NO_REVIEW, with reasons.
type Error struct {
	Problems []Problem
}

// Error renders the reasons on one line each, as "pointer: message".
func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = fmt.Sprintf("%s: %s", displayPointer(p.Pointer), p.Message)
	}
	return strings.Join(lines, "\n")
}

func displayPointer(p string) string {
	if p == "" {
		return "(document)"
	}
	return p
}

// ErrRead is the cause every *ReadError matches with errors.Is: the input
// stream failed, which is no verdict on any document (SPEC A12: exit 1).
var ErrRead = errors.New("reading input")

// ReadError is a failure of the underlying reader (anything but io.EOF)
// while reading document Doc (1-based), Offset bytes into it. It is never a
// gate verdict: the caller stops and reports an I/O failure.
type ReadError struct {
	Op     string // what failed: "read"
	Doc    int    // 1-based number of the document being read
	Offset int64  // bytes into that document
	Err    error  // the reader's error
}

// Error names the document and position the stream failed at.
func (e *ReadError) Error() string {
	return fmt.Sprintf("%s input (document %d, byte %d): %v", e.Op, e.Doc, e.Offset, e.Err)
}

// Unwrap returns the reader's error.
func (e *ReadError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrRead) true for every *ReadError.
func (e *ReadError) Is(target error) bool { return target == ErrRead }

// Reader yields the documents of one input stream in order.
type Reader struct {
	in    *bufio.Reader
	docs  int // documents started so far
	seen  bool
	ended bool
	// failed is the *ReadError that ended the stream, returned again by
	// every later Next.
	failed error
	// pos is the stream offset after the last document; start and end
	// delimit the last document read (the fuzz target checks those bytes).
	pos, start, end int64
	// paths backs the documents' Path strings, scratch is the parser's
	// token buffer and keySets its duplicate-key sets, all kept across
	// documents: a document costs what its
	// bytes need, not a fresh buffer (SPEC B4).
	paths   arena
	scratch []byte
	keySets *[maxDepth + 1]keySet
	// buildAll is the parser's oracle mode (tests only, see shape.go).
	buildAll bool
}

// NewReader prepares to read concatenated JSON documents from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{in: bufio.NewReaderSize(r, 1<<18)}
}

// Next reads and gates the next document. It returns the document's input
// when it passes; an *Error when it fails the gate (NO_REVIEW); io.EOF after
// the last document; a *ReadError when the stream itself fails, after which
// Next keeps returning it. A syntax error fails its document and ends the
// stream.
func (r *Reader) Next() (skill.Input, error) {
	if r.failed != nil {
		return skill.Input{}, r.failed
	}
	if r.ended {
		return skill.Input{}, io.EOF
	}
	p := &parser{r: r.in, doc: r.docs + 1, paths: &r.paths, scratch: r.scratch, keySets: r.keySets, buildAll: r.buildAll}
	defer func() { r.scratch, r.keySets = p.scratch[:0], p.keySets }()
	_, more, err := p.skipSpace()
	if err != nil {
		r.failed = err
		return skill.Input{}, err
	}
	if !more {
		r.ended = true
		if r.seen {
			return skill.Input{}, io.EOF
		}
		return skill.Input{}, &Error{Problems: []Problem{{Code: CodeEmpty, Message: "no JSON document on input"}}}
	}
	r.seen = true
	r.docs++
	r.start = r.pos + p.off
	p.off = 0 // positions count from the document's first byte
	items := &itemCollector{}
	p.onItem = items.add
	p.onEntry = items.addEntry
	root, err := p.value(0)
	r.end = r.start + p.off
	r.pos = r.end
	var syn *syntaxError
	if errors.As(err, &syn) {
		r.ended = true
		return skill.Input{}, &Error{Problems: []Problem{{Code: CodeSyntax, Message: fmt.Sprintf("invalid JSON in document %d at %v", r.docs, syn)}}}
	}
	if err != nil { // only *ReadError remains
		r.failed = err
		return skill.Input{}, err
	}
	if len(p.probs) > 0 {
		return skill.Input{}, newError(p.probs, p.dropped)
	}
	probs := validateDocument(root, p.unsafe, p.items)
	probs = append(probs, items.probs...)
	if len(probs) > 0 || items.bad > 0 {
		e := newError(probs, 0)
		if items.bad > maxProblems {
			e.Problems = append(e.Problems, Problem{Code: CodeProblemsCapped, Pointer: "/inventory/paths",
				Message: fmt.Sprintf("%d further invalid entries not examined", items.bad-maxProblems)})
		}
		return skill.Input{}, e
	}
	return buildInput(root.(map[string]any), items.entries()), nil
}

// newError sorts and de-duplicates problems and caps their number; dropped
// problems were already compacted away (compact) and count among the rest.
func newError(probs []Problem, dropped int) *Error {
	out := sortProblems(probs)
	if extra := len(out) - maxProblems + dropped; extra > 0 {
		out = append(out[:min(len(out), maxProblems)], Problem{Code: CodeProblemsCapped,
			Message: fmt.Sprintf("%d more problems not shown", extra)})
	}
	return &Error{Problems: out}
}

// compactAt is the length at which the parser's problem list is compacted.
const compactAt = 8 * maxProblems

// compact keeps the first maxProblems distinct problems in pointer order and
// adds the number of the others to dropped. The problems kept are the ones
// newError would show, whatever comes later: a later problem can only push
// one out. A dropped problem found again later is counted again, so the
// count of the rest counts occurrences past the first maxProblems.
func compact(probs []Problem, dropped int) ([]Problem, int) {
	out := sortProblems(probs)
	if len(out) <= maxProblems {
		return out, dropped
	}
	dropped += len(out) - maxProblems
	clear(out[maxProblems:])
	return out[:maxProblems], dropped
}

// sortProblems sorts problems (JSON pointer order, then message) and
// removes repeats, in place.
func sortProblems(probs []Problem) []Problem {
	segs := make(map[string][]string, len(probs))
	for _, p := range probs {
		if _, ok := segs[p.Pointer]; !ok {
			segs[p.Pointer] = strings.Split(p.Pointer, "/")
		}
	}
	sort.SliceStable(probs, func(i, j int) bool {
		if c := comparePointers(segs[probs[i].Pointer], segs[probs[j].Pointer]); c != 0 {
			return c < 0
		}
		return probs[i].Message < probs[j].Message
	})
	out := probs[:0]
	for i, p := range probs {
		if i > 0 && p == probs[i-1] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// comparePointers orders JSON pointers segment by segment, array indexes
// numerically, so /paths/2 sorts before /paths/10.
func comparePointers(as, bs []string) int {
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		ai, aerr := strconv.Atoi(as[i])
		bi, berr := strconv.Atoi(bs[i])
		if aerr == nil && berr == nil && ai != bi {
			if ai < bi {
				return -1
			}
			return 1
		}
		return strings.Compare(as[i], bs[i])
	}
	return len(as) - len(bs)
}

// pointer builds an RFC 6901 JSON pointer from path segments.
func pointer(segs []seg) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
			continue
		}
		for i := 0; i < len(s.key); i++ {
			switch s.key[i] {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteByte(s.key[i])
			}
		}
	}
	return b.String()
}
