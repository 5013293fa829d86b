package gate

import (
	"errors"
	"fmt"
	"io"
)

// skipNumber reads a number token in discard mode: it checks the grammar
// of RFC 8259 §6 as the bytes arrive (numberStep) and keeps only what the
// message of a bad literal echoes, so a gigabyte of digits costs nothing.
func (p *parser) skipNumber() error {
	var echo numberEcho
	state := numStart
	for {
		c, err := p.r.ReadByte()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return p.ioFail(err)
		}
		if !numberByte(c) {
			_ = p.r.UnreadByte()
			break
		}
		p.off++
		echo.add(c)
		state = numberStep(state, c)
	}
	if !numberFinal(state) {
		return p.fail(fmt.Sprintf("invalid number %q", echo.String()))
	}
	return nil
}

// The states of the number grammar's automaton.
const (
	numStart = iota // nothing read
	numMinus        // "-"
	numZero         // a leading 0 (final)
	numInt          // integer digits (final)
	numDot          // "."
	numFrac         // fraction digits (final)
	numE            // "e" or "E"
	numESign        // the exponent's sign
	numExp          // exponent digits (final)
	numBad          // no number
)

// numberStep is the automaton's transition on byte c.
func numberStep(state int, c byte) int {
	digit := c >= '0' && c <= '9'
	switch state {
	case numStart, numMinus:
		switch {
		case c == '-' && state == numStart:
			return numMinus
		case c == '0':
			return numZero
		case digit:
			return numInt
		}
	case numZero, numInt:
		switch {
		case digit && state == numInt:
			return numInt
		case c == '.':
			return numDot
		case c == 'e' || c == 'E':
			return numE
		}
	case numDot, numFrac:
		switch {
		case digit:
			return numFrac
		case state == numFrac && (c == 'e' || c == 'E'):
			return numE
		}
	case numE:
		switch {
		case c == '+' || c == '-':
			return numESign
		case digit:
			return numExp
		}
	case numESign, numExp:
		if digit {
			return numExp
		}
	}
	return numBad
}

// numberFinal reports whether the automaton accepts in state.
func numberFinal(state int) bool {
	return state == numZero || state == numInt || state == numFrac || state == numExp
}

// numberEcho keeps what shorten keeps of a literal: all of it up to
// maxEcho bytes, else its first and last maxEcho/2.
type numberEcho struct {
	head [maxEcho]byte
	tail [maxEcho / 2]byte // a ring: byte n of the literal at n % len
	n    int
}

func (e *numberEcho) add(c byte) {
	if e.n < maxEcho {
		e.head[e.n] = c
	}
	e.tail[e.n%len(e.tail)] = c
	e.n++
}

// String is shorten(literal).
func (e *numberEcho) String() string {
	if e.n <= maxEcho {
		return string(e.head[:e.n])
	}
	b := append([]byte(nil), e.head[:maxEcho/2]...)
	b = append(b, "…"...)
	for i := range len(e.tail) {
		b = append(b, e.tail[(e.n+i)%len(e.tail)])
	}
	return string(b)
}
