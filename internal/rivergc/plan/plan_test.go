package plan

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
	"github.com/plangate-gc/plangate-gc/skill"
)

// sample is a plan with every kind of item and names that need escaping:
// a byte that is not UTF-8, a quote, a control character, non-ASCII.
func sample() *Plan {
	r := skill.Retention{Days: jsonnum.MustParse("90"), MaxEntries: jsonnum.MustParse("1e3"), MaxSizeMb: jsonnum.MustParse("0.5")}
	r7 := r
	r7.Days = jsonnum.MustParse("7")
	return &Plan{ToolVersion: "devel", Root: "/srv/répo \"x\"", Now: 1764374400, Timestamp: "metadata",
		Scopes: []skill.Scope{skill.ScopeMemory, skill.ScopeTmp, skill.ScopeMemoryEntries}, Retention: r,
		PerScope: map[skill.Scope]skill.Retention{skill.ScopeMemory: r, skill.ScopeTmp: r7, skill.ScopeMemoryEntries: r},
		Excludes: []string{"/artifacts/keep/**"},
		Items: []Item{
			{Path: ".river/memory/a\"\x01\xff.json", SizeBytes: 37, Reason: skill.ReasonAge,
				Identity: Identity{Size: 37, MtimeNs: 1, Dev: 2, Ino: 3, CtimeNs: 4}},
			{Path: ".river/memory/index.json#r1", SizeBytes: 101, Reason: skill.ReasonCount,
				Entry: &Entry{Store: ".river/memory/index.json", ID: "r1"}, Identity: Identity{Size: 101, SHA256: "ab"}},
			{Path: ".river/tmp/é", SizeBytes: 1, Reason: skill.ReasonSize, Identity: Identity{Size: 1, MtimeNs: -5, ETag: `"etag"`}},
			{Path: "artifacts/evals/results.jsonl#2", SizeBytes: 43, Reason: skill.ReasonAge,
				Entry: &Entry{Store: "artifacts/evals/results.jsonl", Line: 2, Timestamp: "2024-01-02T00:00:00Z"}, Identity: Identity{Size: 43, SHA256: "cd"}},
		}}
}

// TestPlanRoundTrips: what Encode writes, Decode reads back as the same
// plan, bytes that are not UTF-8 included, and encodes again to the
// same bytes.
func TestPlanRoundTrips(t *testing.T) {
	p := sample()
	var b bytes.Buffer
	if err := Encode(&b, p); err != nil {
		t.Fatal(err)
	}
	q, err := Decode(b.Bytes())
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, b.Bytes())
	}
	if !reflect.DeepEqual(p, q) {
		t.Errorf("read back\n%+v\nwant\n%+v", q, p)
	}
	var again bytes.Buffer
	Encode(&again, q)
	if !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Errorf("encoded again differs")
	}
	if !bytes.Contains(b.Bytes(), []byte(`a\"\u0001\udcff.json`)) {
		t.Errorf("a name is not escaped as the record escapes it:\n%s", b.Bytes())
	}
}

// TestEveryByteChangeIsRefused: a plan changed in any one byte (each byte
// replaced by another, or removed) is never applied: Decode refuses it.
func TestEveryByteChangeIsRefused(t *testing.T) {
	var b bytes.Buffer
	if err := Encode(&b, sample()); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	for i := range good {
		for _, changed := range [][]byte{
			append(append(bytes.Clone(good[:i]), good[i]^0x01), good[i+1:]...),
			append(bytes.Clone(good[:i]), good[i+1:]...),
		} {
			if _, err := Decode(changed); err == nil {
				t.Fatalf("byte %d (%q) changed: accepted", i, good[max(0, i-20):min(len(good), i+20)])
			}
		}
	}
}

// TestDecodeSaysWhy: a plan of another format version, a plan whose
// digest does not match, and a file that is no plan are told apart.
func TestDecodeSaysWhy(t *testing.T) {
	var b bytes.Buffer
	Encode(&b, sample())
	good := b.Bytes()
	for _, c := range []struct {
		name string
		data []byte
		want ErrorKind
	}{
		{"version 2", bytes.Replace(good, []byte(`"planVersion": "1"`), []byte(`"planVersion": "2"`), 1), KindVersion},
		{"another root", bytes.Replace(good, []byte(`"/srv/`), []byte(`"/tmp/`), 1), KindDigest},
		{"an identity", bytes.Replace(good, []byte(`"ino": 3`), []byte(`"ino": 4`), 1), KindDigest},
		{"an item less", bytes.Replace(good, []byte(`"reason": "count"`), []byte(`"reason": "age"`), 1), KindDigest},
		{"not JSON", good[:len(good)/2], KindUnreadable},
		{"no version", []byte(`{"root":"/"}`), KindUnreadable},
		{"an unknown member", bytes.Replace(good, []byte(`"planVersion": "1",`), []byte(`"planVersion": "1", "x": 1,`), 1), KindDigest},
	} {
		_, err := Decode(c.data)
		var pe *Error
		if !errors.As(err, &pe) || pe.Kind != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}

// TestIdentityDiff names the fields that differ, in their order.
func TestIdentityDiff(t *testing.T) {
	a := Identity{Size: 1, MtimeNs: 2, Dev: 3, Ino: 4, CtimeNs: 5, ETag: "e", SHA256: "h"}
	if d := a.Diff(a); d != nil {
		t.Errorf("same identity: %v", d)
	}
	b := a
	b.Size, b.CtimeNs, b.SHA256 = 9, 9, "x"
	if d := a.Diff(b); !reflect.DeepEqual(d, []string{"size", "ctime", "bytes"}) {
		t.Errorf("diff %v", d)
	}
}
