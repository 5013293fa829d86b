package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/internal/jsonesc"
	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
	"github.com/plangate-gc/plangate-gc/internal/rfc3339"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Decode reads a plan file. It is refused (*Error) when it is not a plan
// (KindUnreadable), of another format version (KindVersion), or when its
// bytes are not exactly those Encode writes for what they say with the
// digest of their canonical encoding (KindDigest): a plan changed by a
// byte since it was written, its layout included, is never applied.
func Decode(data []byte) (*Plan, error) {
	// One pass: members it does not know are left for the byte-exact
	// check below to refuse.
	var f fileJSON
	err := json.Unmarshal(data, &f)
	if f.PlanVersion != "" && f.PlanVersion != FormatVersion {
		return nil, &Error{Kind: KindVersion, Got: string(f.PlanVersion), Want: FormatVersion}
	}
	if err == nil && f.PlanVersion == "" {
		err = errors.New("no planVersion")
	}
	if err != nil {
		return nil, &Error{Kind: KindUnreadable, Err: err}
	}
	p, err := f.plan()
	if err != nil {
		return nil, &Error{Kind: KindUnreadable, Err: err}
	}
	c := p.Canonical()
	var again bytes.Buffer
	if json.Indent(&again, withDigest(c, p.Digest), "", "  ") != nil || DigestOf(c) != p.Digest ||
		!bytes.Equal(append(again.Bytes(), '\n'), data) {
		return nil, &Error{Kind: KindDigest}
	}
	if err := f.consistent(); err != nil {
		return nil, &Error{Kind: KindUnreadable, Err: err}
	}
	return p, nil
}

// consistent checks what the writer always makes true: one identity per
// removal, of the same path, the removals in path order.
func (f fileJSON) consistent() error {
	if len(f.Removed) != len(f.Identities) {
		return fmt.Errorf("%d removals, %d identities", len(f.Removed), len(f.Identities))
	}
	for i, r := range f.Removed {
		if f.Identities[i].Path != r.Path {
			return fmt.Errorf("identities[%d] is %q, not %q", i, string(f.Identities[i].Path), string(r.Path))
		}
		if i > 0 && f.Removed[i-1].Path >= r.Path {
			return fmt.Errorf("removed[] is not in path order at %q", string(r.Path))
		}
	}
	return nil
}

// fileJSON is a plan file's members as read.
type fileJSON struct {
	PlanVersion       str                      `json:"planVersion"`
	ToolVersion       str                      `json:"toolVersion"`
	Root              str                      `json:"root"`
	Now               str                      `json:"now"`
	Timestamp         str                      `json:"timestamp"`
	KeepWithin        int64                    `json:"keepWithinSeconds"`
	Scopes            []str                    `json:"scopes"`
	Retention         retentionJSON            `json:"retention"`
	RetentionPerScope map[string]retentionJSON `json:"retentionPerScope"`
	Excludes          []str                    `json:"excludes"`
	Removed           []struct {
		Path      str    `json:"path"`
		SizeBytes uint64 `json:"sizeBytes"`
		Reason    str    `json:"reason"`
		Entry     *struct {
			Store     str `json:"store"`
			ID        str `json:"id"`
			Line      int `json:"line"`
			Timestamp str `json:"timestamp"`
		} `json:"entry"`
	} `json:"removed"`
	Identities []struct {
		Path    str    `json:"path"`
		Size    int64  `json:"size"`
		MtimeNs int64  `json:"mtimeNs"`
		Dev     uint64 `json:"dev"`
		Ino     uint64 `json:"ino"`
		CtimeNs int64  `json:"ctimeNs"`
		ETag    str    `json:"etag"`
		SHA256  str    `json:"sha256"`
	} `json:"identities"`
	Digest str `json:"digest"`
}

type retentionJSON struct {
	Days       json.RawMessage `json:"days"`
	MaxEntries json.RawMessage `json:"maxEntries"`
	MaxSizeMb  json.RawMessage `json:"maxSizeMb"`
}

func (r retentionJSON) retention() (skill.Retention, error) {
	var out skill.Retention
	for _, n := range []struct {
		lit json.RawMessage
		to  *jsonnum.Number
	}{{r.Days, &out.Days}, {r.MaxEntries, &out.MaxEntries}, {r.MaxSizeMb, &out.MaxSizeMb}} {
		v, ok := jsonnum.Parse(string(n.lit))
		if !ok {
			return out, fmt.Errorf("retention: %q is not a number", n.lit)
		}
		*n.to = v
	}
	return out, nil
}

// plan builds the Plan the members say; Decode then checks that it
// encodes back to the same bytes.
func (f fileJSON) plan() (*Plan, error) {
	now, ok := rfc3339.Unix(string(f.Now))
	if !ok {
		return nil, fmt.Errorf("now: %q is not RFC 3339", string(f.Now))
	}
	p := &Plan{ToolVersion: string(f.ToolVersion), Root: string(f.Root), Now: now, Timestamp: string(f.Timestamp),
		KeepWithin: f.KeepWithin, PerScope: map[skill.Scope]skill.Retention{}, Digest: string(f.Digest)}
	var err error
	if p.Retention, err = f.Retention.retention(); err != nil {
		return nil, err
	}
	for _, s := range f.Scopes {
		sc := skill.Scope(s)
		if !sc.Valid() {
			return nil, fmt.Errorf("scopes: unknown scope %q", string(s))
		}
		p.Scopes = append(p.Scopes, sc)
		r, ok := f.RetentionPerScope[string(s)]
		if !ok {
			return nil, fmt.Errorf("retentionPerScope: no policy for %s", sc)
		}
		if p.PerScope[sc], err = r.retention(); err != nil {
			return nil, err
		}
	}
	for _, x := range f.Excludes {
		p.Excludes = append(p.Excludes, string(x))
	}
	for i, r := range f.Removed {
		it := Item{Path: string(r.Path), SizeBytes: r.SizeBytes, Reason: skill.Reason(r.Reason)}
		if i < len(f.Identities) { // more or fewer identities: the encoding differs, the digest says so
			id := f.Identities[i]
			it.Identity = Identity{Size: id.Size, MtimeNs: id.MtimeNs, Dev: id.Dev, Ino: id.Ino, CtimeNs: id.CtimeNs, ETag: string(id.ETag), SHA256: string(id.SHA256)}
		}
		if e := r.Entry; e != nil {
			it.Entry = &Entry{Store: string(e.Store), ID: string(e.ID), Line: e.Line, Timestamp: string(e.Timestamp)}
		}
		p.Items = append(p.Items, it)
	}
	return p, nil
}

// str is a JSON string read back to the bytes river gc wrote: the escape
// \udcHH (a lone low surrogate) stands for the byte 0xHH that was not
// UTF-8 (render.AppendString), which encoding/json would turn into
// U+FFFD.
type str string

// UnmarshalJSON decodes a JSON string literal.
func (s *str) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("not a string: %.40s", b)
	}
	b = b[1 : len(b)-1]
	if bytes.IndexByte(b, '\\') < 0 { // nothing escaped: as it stands
		*s = str(b)
		return nil
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i+1 >= len(b) {
			return errors.New("a string ends in a backslash")
		}
		i++
		if e, ok := jsonesc.Simple(b[i]); ok {
			out = append(out, e)
			continue
		}
		if b[i] != 'u' {
			return fmt.Errorf("a bad escape \\%c", b[i])
		}
		u, ok := jsonesc.Hex4(b[i+1:])
		if !ok {
			return errors.New("a bad \\u escape")
		}
		i += 4
		switch {
		case u >= 0xdc80 && u <= 0xdcff: // a byte that was not UTF-8
			out = append(out, byte(u))
		case u >= 0xd800 && u < 0xdc00: // a pair, or a lone high surrogate (U+FFFD)
			r, n := jsonesc.Pair(u, b[i+1:])
			i += n
			out = utf8.AppendRune(out, r)
		default:
			out = utf8.AppendRune(out, u)
		}
	}
	*s = str(out)
	return nil
}
