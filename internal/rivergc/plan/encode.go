package plan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"
	"time"

	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Encode writes p as its file: the canonical encoding with the digest as
// its last member, laid out as json.Indent(…, "", "  ") lays it out (as
// river gc's record is), so that removed[] is byte for byte the dry-run
// record's. It sets p.Digest.
func Encode(w io.Writer, p *Plan) error {
	c := p.Canonical()
	p.Digest = DigestOf(c)
	var buf bytes.Buffer
	if err := json.Indent(&buf, withDigest(c, p.Digest), "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err := w.Write(buf.Bytes())
	return err
}

// DigestOf is the digest of a canonical encoding: "sha256:" and its hex
// SHA-256.
func DigestOf(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// withDigest appends the digest member to a canonical encoding.
func withDigest(c []byte, digest string) []byte {
	b := append(bytes.Clone(c[:len(c)-1]), `,"digest":`...)
	return append(render.AppendString(b, digest), '}')
}

// Canonical is the plan's canonical encoding, the bytes its digest is
// made over: compact JSON of every member but the digest, in a fixed
// order, strings escaped as every record of river gc escapes them (a
// byte that is not UTF-8 as \udcHH), numbers as decimal integers and the
// policy's numbers as they were given.
func (p *Plan) Canonical() []byte {
	b := []byte(`{"planVersion":`)
	b = render.AppendString(b, FormatVersion)
	b = key(b, "toolVersion")
	b = render.AppendString(b, p.ToolVersion)
	b = key(b, "root")
	b = render.AppendString(b, p.Root)
	b = key(b, "now")
	b = render.AppendString(b, time.Unix(p.Now, 0).UTC().Format(time.RFC3339))
	b = key(b, "timestamp")
	b = render.AppendString(b, p.Timestamp)
	b = key(b, "keepWithinSeconds")
	b = strconv.AppendInt(b, p.KeepWithin, 10)
	b = key(b, "scopes")
	b = append(b, '[')
	for i, s := range p.Scopes {
		b = comma(b, i)
		b = render.AppendString(b, string(s))
	}
	b = append(b, ']')
	b = key(b, "retention")
	b = retention(b, p.Retention)
	b = key(b, "retentionPerScope")
	b = append(b, '{')
	for i, s := range p.Scopes {
		b = comma(b, i)
		b = render.AppendString(b, string(s))
		b = append(b, ':')
		b = retention(b, p.PerScope[s])
	}
	b = append(b, '}')
	b = key(b, "excludes")
	b = append(b, '[')
	for i, x := range p.Excludes {
		b = comma(b, i)
		b = render.AppendString(b, x)
	}
	b = append(b, ']')
	b = key(b, "removed")
	b = append(b, '[')
	for i, it := range p.Items {
		b = comma(b, i)
		b = removedObject(b, it)
	}
	b = append(b, ']')
	b = key(b, "identities")
	b = append(b, '[')
	for i, it := range p.Items {
		b = comma(b, i)
		b = identityObject(b, it)
	}
	return append(b, ']', '}')
}

// removedObject is the item as the record's removed[] writes it (report.GCJSON).
func removedObject(b []byte, it Item) []byte {
	b = append(b, `{"path":`...)
	b = render.AppendString(b, it.Path)
	b = key(b, "sizeBytes")
	b = strconv.AppendUint(b, it.SizeBytes, 10)
	b = key(b, "reason")
	b = render.AppendString(b, string(it.Reason))
	if e := it.Entry; e != nil {
		b = key(b, "entry")
		b = append(b, `{"store":`...)
		b = render.AppendString(b, e.Store)
		if e.Line > 0 {
			b = key(b, "line")
			b = strconv.AppendInt(b, int64(e.Line), 10)
			b = key(b, "timestamp")
			b = render.AppendString(b, e.Timestamp)
		} else {
			b = key(b, "id")
			b = render.AppendString(b, e.ID)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// identityObject writes the item's identity: size and mtime always, the
// disk's device, inode and ctime when known, an ETag, an entry's hash.
func identityObject(b []byte, it Item) []byte {
	id := it.Identity
	b = append(b, `{"path":`...)
	b = render.AppendString(b, it.Path)
	b = key(b, "size")
	b = strconv.AppendInt(b, id.Size, 10)
	b = key(b, "mtimeNs")
	b = strconv.AppendInt(b, id.MtimeNs, 10)
	if id.Dev != 0 || id.Ino != 0 || id.CtimeNs != 0 {
		b = key(b, "dev")
		b = strconv.AppendUint(b, id.Dev, 10)
		b = key(b, "ino")
		b = strconv.AppendUint(b, id.Ino, 10)
		b = key(b, "ctimeNs")
		b = strconv.AppendInt(b, id.CtimeNs, 10)
	}
	if id.ETag != "" {
		b = key(b, "etag")
		b = render.AppendString(b, id.ETag)
	}
	if id.SHA256 != "" {
		b = key(b, "sha256")
		b = render.AppendString(b, id.SHA256)
	}
	return append(b, '}')
}

func retention(b []byte, r skill.Retention) []byte {
	b = append(b, `{"days":`...)
	b = append(b, r.Days.Literal...)
	b = key(b, "maxEntries")
	b = append(b, r.MaxEntries.Literal...)
	b = key(b, "maxSizeMb")
	b = append(b, r.MaxSizeMb.Literal...)
	return append(b, '}')
}

// key starts the next member k of an object that has one already.
func key(b []byte, k string) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	return append(b, '"', ':')
}

// comma separates the i-th element of an array from the one before.
func comma(b []byte, i int) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	return b
}
