//go:build linux

package riverreview

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// diffCase is one generated case of the differential test: the stores'
// bytes (nil: the file is absent), the instant and time zone the readers
// run at, and river-gc's retention.
type diffCase struct {
	Seed          uint64   `json:"seed"`
	Now           string   `json:"now"`
	TZ            string   `json:"tz"`
	RetentionDays int      `json:"retentionDays"`
	Index         []byte   `json:"-"`
	Ledger        []byte   `json:"-"`
	Traps         []string `json:"traps"`
}

// gen draws one case from its seed; the same seed always gives the same
// bytes.
type gen struct {
	r     *rand.Rand
	now   time.Time
	ids   [][]byte // every id written so far, as its bytes between quotes
	files []string
	traps []string
}

// pick returns one of xs.
func pick[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

// chance is true with probability p.
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// trap records that a trap was set (the case's description names each
// kind once, in the order first set).
func (g *gen) trap(name string) {
	if !slices.Contains(g.traps, name) {
		g.traps = append(g.traps, name)
	}
}

// generate builds the case of seed: from nothing, or (three cases in ten,
// when base is not nil) by mutating the stores upstream's writers wrote.
func generate(seed uint64, base *diffBase) diffCase {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x6b36_2d64_6966_66))}
	mutated := base != nil && g.chance(0.3)
	start := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	if mutated {
		start = base.end
	}
	g.now = start.Add(time.Duration(g.r.Int64N(400*86400)) * time.Second)
	nowText := g.now.Format(time.RFC3339)
	if g.chance(0.2) {
		g.now = g.now.Add(time.Duration(1+g.r.IntN(999)) * time.Millisecond)
		nowText = g.now.Format("2006-01-02T15:04:05.000Z07:00")
	}
	c := diffCase{Seed: seed, Now: nowText,
		TZ:            pick(g, "UTC", "UTC", "UTC", "Asia/Tokyo", "America/Los_Angeles", "Pacific/Kiritimati"),
		RetentionDays: pick(g, 0, 1, 7, 30, 90, 90)}
	g.files = []string{"src/auth/login.ts", "src/lib/util.mjs", "docs/a.md", "README.md", pick(g, "src/auth/x.ts", "lib/k.go")}
	switch {
	case mutated:
		c.Index, c.Ledger = g.mutate(base)
	default:
		if g.chance(0.9) {
			c.Index = g.index()
		}
		if g.chance(0.85) {
			c.Ledger = g.ledger()
		}
	}
	c.Traps = g.traps
	return c
}

// date is a timestamp as upstream's stores hold them, or one of the odd
// forms a hostile or foreign writer leaves: invalid months and days,
// extended years, leap seconds, no zone, offsets, before 1970, far future,
// and values that are not strings at all.
func (g *gen) date() jv {
	t := g.now.Add(time.Duration(g.r.Int64N(2*400*86400)-400*86400) * time.Second)
	if g.chance(0.08) {
		// Exactly now, or a millisecond either side.
		t = g.now.Add(time.Duration(g.r.IntN(3)-1) * time.Millisecond)
	}
	if g.chance(0.7) {
		return str(t.UTC().Format(pick(g, "2006-01-02T15:04:05.000Z", "2006-01-02T15:04:05.000Z", "2006-01-02T15:04:05Z")))
	}
	if g.chance(0.1) {
		g.trap("escaped date")
		text := t.UTC().Format("2006-01-02T15:04:05.000Z")
		return rawStr(`\u00` + fmt.Sprintf("%x", text[0]) + text[1:])
	}
	g.trap("odd date")
	switch g.r.IntN(6) {
	case 0:
		return str(t.In(time.FixedZone("", pick(g, 9, -8, 14, -12)*3600)).Format(pick(g,
			"2006-01-02T15:04:05-07:00", "2006-01-02T15:04:05.000-07:00", "2006-01-02T15:04:05")))
	case 1:
		return str(t.UTC().Format(pick(g, "2006-01-02", "2006-01-02T15:04", "2006-01-02 15:04:05Z", "2006-01-02t15:04:05z",
			"+002006-01-02T15:04:05.000Z", " 2006-01-02T15:04:05Z", "2006-01-02T15:04:05.123456789Z", "Jan 2 2006 15:04:05 GMT")))
	case 2:
		y := t.Year()
		return str(pick(g, fmt.Sprintf("%d-13-01T00:00:00Z", y), fmt.Sprintf("%d-02-30T00:00:00Z", y),
			fmt.Sprintf("%d-02-29T00:00:00.000Z", y), fmt.Sprintf("%d-12-31T23:59:60Z", y-1), fmt.Sprintf("%d-00-10T00:00:00Z", y),
			fmt.Sprintf("%d-06-01T24:00:00Z", y), fmt.Sprintf("+00%d-01-01T00:00:00.000Z", y)))
	case 3:
		return str(pick(g, "1969-07-20T20:17:40.000Z", "1900-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z",
			"9999-12-31T23:59:59.999Z", "+275760-09-13T00:00:00.000Z", "+275760-09-13T00:00:00.001Z", "+010000-01-01T00:00:00Z", ""))
	case 4:
		return pick(g, num(t.UnixMilli()), num(t.Unix()), tok("0"), tok("-0"), tok("1e400"), tok("null"), tok("true"), tok("false"),
			tok("8640000000000000"), tok("8640000000000001"), tok("-8640000000000000"), tok(fmt.Sprint(t.UnixMilli(), ".5")))
	default:
		return pick(g, obj(), arr(), arr(str(t.UTC().Format(time.RFC3339))), obj("$date", str(t.UTC().Format(time.RFC3339))))
	}
}

// jsValue is a value of every JavaScript type JSON.parse can produce, for
// fields read for their truthiness (context.active).
func (g *gen) jsValue() jv {
	return pick(g, tok("true"), tok("true"), tok("true"), tok("false"), tok("null"), tok("0"), tok("-0"), tok("1"), tok("0.0"),
		tok("1e400"), tok("-1e-400"), str(""), str("false"), str("0"), str(" "), arr(), obj(), rawStr(`\u0000`))
}

// text is a short printable string.
func (g *gen) text() jv {
	return str(pick(g, "keep it", "Use the repository pattern", "重要な決定", "x", "suppress: noisy rule", "", "line\u2028sep\u2029\u0085"))
}
