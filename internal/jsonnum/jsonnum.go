// Package jsonnum reads JSON number literals exactly.
//
// The skill must accept 1.7e9 and 1700000000.0 as integers, echo retention
// values as they were written, and never hand a literal like 1e999999999 to
// math/big (which would try to build a billion-digit number). Parse looks at
// the decimal text itself, so every question it answers (sign, zero,
// integral, exact int64 value) is exact and costs time linear in the literal.
package jsonnum

import (
	"math"
	"strconv"
	"strings"
)

// Number is an analysed JSON number literal. The zero value is the number 0.
type Number struct {
	// Literal is the text exactly as it appeared in the input document.
	Literal string
	// Negative is true when the value is strictly below zero ("-0" is not).
	Negative bool
	// Zero is true when every digit of the mantissa is zero.
	Zero bool
	// Integral is true when the value has no fractional part.
	Integral bool
	// digits are the significant digits (no leading or trailing zeros) and
	// exp10 the power of ten they are scaled by: value = digits × 10^exp10.
	digits string
	exp10  int64
}

// expClamp bounds exponents so arithmetic on them cannot overflow; any
// exponent beyond it is astronomically outside every range the skill uses.
const expClamp = 1 << 40

// Parse analyses a literal that is already known to be valid JSON number
// syntax (RFC 8259 §6). It reports ok=false for anything else.
func Parse(lit string) (Number, bool) {
	n := Number{Literal: lit}
	s := lit
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || (s[0] == '0' && i > 1) {
		return Number{}, false
	}
	intPart, frac := s[:i], ""
	s = s[i:]
	if strings.HasPrefix(s, ".") {
		j := 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == 1 {
			return Number{}, false
		}
		frac, s = s[1:j], s[j:]
	}
	var exp int64
	if len(s) > 0 {
		if s[0] != 'e' && s[0] != 'E' {
			return Number{}, false
		}
		s = s[1:]
		eneg := false
		if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
			eneg, s = s[0] == '-', s[1:]
		}
		if len(s) == 0 {
			return Number{}, false
		}
		for k := 0; k < len(s); k++ {
			if !isDigit(s[k]) {
				return Number{}, false
			}
			if exp < expClamp {
				exp = exp*10 + int64(s[k]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	all := strings.TrimLeft(intPart+frac, "0")
	exp10 := exp - int64(len(frac))
	trimmed := strings.TrimRight(all, "0")
	exp10 += int64(len(all) - len(trimmed))
	n.digits, n.exp10 = trimmed, exp10
	n.Zero = trimmed == ""
	n.Negative = neg && !n.Zero
	n.Integral = n.Zero || exp10 >= 0
	return n, true
}

// MustParse is Parse for literals written in Go source (tests, defaults).
func MustParse(lit string) Number {
	n, ok := Parse(lit)
	if !ok {
		panic("jsonnum: not a JSON number: " + lit)
	}
	return n
}

// Int64 returns the exact value when it is an integer that fits in int64.
func (n Number) Int64() (int64, bool) {
	if !n.Integral {
		return 0, false
	}
	if n.Zero {
		return 0, true
	}
	if int64(len(n.digits))+n.exp10 > 19 {
		return 0, false
	}
	u, err := strconv.ParseUint(n.digits+strings.Repeat("0", int(n.exp10)), 10, 64)
	if err != nil {
		return 0, false
	}
	if n.Negative {
		if u > 1<<63 {
			return 0, false
		}
		return int64(-u), true //nolint:gosec // -u wraps correctly for u ≤ 2^63
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// Float64 returns the IEEE-754 double nearest to the value; literals beyond
// the double range give ±Inf or ±0, as strconv.ParseFloat does.
func (n Number) Float64() float64 {
	if n.Zero {
		if n.Negative {
			return math.Copysign(0, -1)
		}
		return 0
	}
	lit := n.digits + "e" + strconv.FormatInt(n.exp10, 10)
	f, _ := strconv.ParseFloat(lit, 64) // ErrRange still yields ±Inf or 0
	if n.Negative {
		f = -f
	}
	return f
}

// Safe returns a literal that a JSON Schema validator can turn into a
// math/big value cheaply and that has the same sign, integrality and
// standing against every bound up to 10^400 as the original. It is the
// original literal whenever that is already short.
func (n Number) Safe() string {
	if len(n.Literal) <= 64 && n.exp10 > -400 && n.exp10 < 400 {
		return n.Literal
	}
	sign := ""
	if n.Negative {
		sign = "-"
	}
	switch {
	case n.Zero:
		return "0"
	case int64(len(n.digits))+n.exp10 > 400: // |v| ≥ 10^400
		if n.Integral {
			return sign + "1e401"
		}
		// 1.5e401 would be an integer; this is 10^401 + 0.5.
		return sign + "1" + strings.Repeat("0", 401) + ".5"
	case int64(len(n.digits))+n.exp10 <= 0: // 0 < |v| < 1, never integral
		return sign + "0.5"
	case n.Integral: // 1 ≤ |v| < 10^400: the same integer, plainly written
		return sign + n.digits + strings.Repeat("0", int(n.exp10))
	default: // 1 ≤ |v| < 10^400 with a fraction: keep the integer part, mark the fraction
		whole := int64(len(n.digits)) + n.exp10
		return sign + n.digits[:whole] + ".5"
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
