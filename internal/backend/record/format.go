package record

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
)

// Header is the first line of every journal (without its newline).
const Header = "river-gc-journal 1"

// Op is what a run intends to do with an object.
type Op string

// The operations a journal records.
const (
	Delete  Op = "delete"  // delete the object
	Rewrite Op = "rewrite" // replace the object (a store without its removed entries)
	// Temp names the copy a disk rewrite is about to rename over its
	// store, with the copy's identity: a file still there with exactly
	// that identity is a killed rewrite's leftover, which the next
	// --force run removes (decision 223).
	Temp Op = "temp"
)

// known reports whether op is one of the operations a journal records.
func known(op Op) bool { return op == Delete || op == Rewrite || op == Temp }

// Intent is one object a run is about to act on: its key (root-relative,
// '/'-separated) and the tag it was judged with (a bucket's ETag; on
// disk the identity "<dev> <ino> <size> <mtime-ns>").
type Intent struct {
	Op  Op
	Key string
	Tag string
}

// MaxLine bounds one journal line, and so what reading a hostile journal
// may hold in memory at once: 4 MiB, a key of at least 1 MiB (every byte
// quoted as \xNN): paths beyond PATH_MAX, hundreds of components deep,
// fit. The writer refuses a longer line, so the reader reads every line
// the writer writes.
const MaxLine = 4 << 20

// AppendLine appends the intent's line, "<op> <tag> <quoted key>\n", to
// b. A tag of decimal fields (the disk's identity) is written as it is,
// so that every disk journal ever written reads unchanged; any other tag
// is Go-quoted, as the key always is (any byte, newline and invalid
// UTF-8 included, reads back exactly).
func AppendLine(b []byte, in Intent) []byte {
	b = append(b, in.Op...)
	b = append(b, ' ')
	if bareTag(in.Tag) {
		b = append(b, in.Tag...)
	} else {
		b = strconv.AppendQuote(b, in.Tag)
	}
	b = append(b, ' ')
	b = appendQuoted(b, in.Key)
	return append(b, '\n')
}

// appendQuoted is strconv.AppendQuote, byte for byte, with a fast path
// for a key of printable ASCII without '"' or '\\' (what strconv copies
// unchanged): strconv looks at every rune on its own, which was 4% of a
// --force run's CPU on issue 27's deep tree, whose paths are 250 bytes
// long (decision 280).
func appendQuoted(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}

// bareTag reports whether tag is written unquoted: one or more decimal
// fields (an optional '-' and digits), one space apart.
func bareTag(tag string) bool {
	digits := false // the field so far has a digit
	for i := 0; i < len(tag); i++ {
		switch c := tag[i]; {
		case c >= '0' && c <= '9':
			digits = true
		case c == '-' && (i == 0 || tag[i-1] == ' '):
		case c == ' ' && digits:
			digits = false
		default:
			return false
		}
	}
	return digits
}

// parseIntent reads one intent line (without its newline): the op, a
// quoted tag or bare decimal fields, and the quoted key.
func parseIntent(line string) (Intent, bool) {
	op, rest, _ := strings.Cut(line, " ")
	if !known(Op(op)) {
		return Intent{}, false
	}
	var tag string
	if strings.HasPrefix(rest, `"`) {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return Intent{}, false
		}
		if tag, err = strconv.Unquote(q); err != nil {
			return Intent{}, false
		}
		rest = rest[len(q):]
	} else {
		i := strings.Index(rest, ` "`)
		if i < 0 || !bareTag(rest[:i]) {
			return Intent{}, false
		}
		tag, rest = rest[:i], rest[i:]
	}
	q, ok := strings.CutPrefix(rest, " ")
	key, err := strconv.Unquote(q)
	if !ok || err != nil || !strings.HasPrefix(q, `"`) {
		return Intent{}, false
	}
	return Intent{Op: Op(op), Key: key, Tag: tag}, true
}

// Parsed is what one journal (a disk file, a bucket object) says.
type Parsed struct {
	Intents []Intent
	Runs    int   // "run" lines: the runs that began appending to it
	Done    int   // "done" lines: the runs whose deletions ended
	Lease   int64 // the latest "lease" line (Unix seconds), 0 when none
	Bad     int   // lines not in the journal's form
}

// Parse reads a journal's lines: the header, then "run", "done",
// "lease <unix-seconds>" and intent lines in any order. Every intent
// line that parses, and that valid accepts, is read wherever it stands;
// the other lines are counted (bad), a missing or foreign header as one,
// whose line is still read as an intent if it is one. A last line
// without its newline is a write a kill cut short: its batch was never
// made durable, nothing of it was acted on; it is ignored. Only a read
// error is an error.
func Parse(r *bufio.Reader, valid func(Intent) bool) (p Parsed, err error) {
	first := true
	var long []byte
	cut := false // the line before did not parse; a "run" now says it was cut short
	intent := func(s string) bool {
		in, ok := parseIntent(s)
		if ok = ok && valid(in); ok {
			p.Intents = append(p.Intents, in)
		}
		return ok
	}
	for {
		line, complete, err := readLine(r, &long)
		if errors.Is(err, io.EOF) {
			return p, nil
		}
		if err != nil {
			return Parsed{}, err
		}
		s := string(line)
		if cut && s == "run" {
			// The next run's append ended the cut line with a '\n' of
			// its own: it was the cut-short end of a batch never made
			// durable, not a line a disk garbled.
			p.Bad--
		}
		cut = false
		if first {
			first = false
			if complete && s == Header {
				continue
			}
			p.Bad++ // not ours, or the header was lost: read as an intent if it is one
			if complete {
				intent(s)
			}
			continue
		}
		switch {
		case !complete:
			p.Bad++
			cut = true
		case s == "run":
			p.Runs++
		case s == "done":
			p.Done++
		case strings.HasPrefix(s, "lease "):
			n, err := strconv.ParseInt(s[len("lease "):], 10, 64)
			if err != nil {
				p.Bad++
				continue
			}
			p.Lease = max(p.Lease, n)
		default:
			if !intent(s) {
				p.Bad++
				cut = true
			}
		}
	}
}

// readLine returns the next line without its newline, of any length up
// to MaxLine (complete), or skips a longer one whole (not complete). A
// last line without a newline is io.EOF. long is scratch space kept
// between calls.
func readLine(r *bufio.Reader, long *[]byte) (line []byte, complete bool, err error) {
	*long = (*long)[:0]
	size := 0
	for {
		frag, err := r.ReadSlice('\n')
		size += len(frag)
		if size <= MaxLine+1 && (err == nil || errors.Is(err, bufio.ErrBufferFull)) {
			if err == nil && len(*long) == 0 {
				return frag[:len(frag)-1], true, nil
			}
			*long = append(*long, frag...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return nil, false, err
		case size > MaxLine+1:
			return nil, false, nil
		}
		return (*long)[:len(*long)-1], true, nil
	}
}
