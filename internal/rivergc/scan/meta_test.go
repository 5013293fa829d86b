//go:build linux

package scan

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/skill"
)

func TestScanMetadataTimestamp(t *testing.T) {
	const (
		t2021 = 1609459200 // 2021-01-01T00:00:00Z
		t2022 = 1640995200 // 2022-01-01T00:00:00Z
		t2023 = 1672531200 // 2023-01-01T00:00:00Z
		t2024 = 1704067200 // 2024-01-01T00:00:00Z
	)
	mtime := epoch.Unix()
	big := `{"pad":"` + strings.Repeat("x", MetadataByteCap) + `","timestamp":"2021-01-01T00:00:00Z"}`
	head := `{"timestamp":"2021-01-01T00:00:00Z"}`
	atCap := head + strings.Repeat(" ", MetadataByteCap-len(head))
	tests := []struct {
		name, file, content string
		want                int64
		source              TimestampSource
	}{
		{"timestamp", "a.json", `{"timestamp":"2021-01-01T00:00:00Z"}`, t2021, SourceMetadata},
		{"metadata.updatedAt", "a.json", `{"metadata":{"updatedAt":"2022-01-01T00:00:00Z"}}`, t2022, SourceMetadata},
		{"metadata.createdAt", "a.json", `{"metadata":{"createdAt":"2023-01-01T00:00:00Z"}}`, t2023, SourceMetadata},
		{"generatedAt", "a.json", `{"generatedAt":"2024-01-01T00:00:00Z"}`, t2024, SourceMetadata},
		{"precedence all four, reversed order", "a.json",
			`{"generatedAt":"2024-01-01T00:00:00Z","metadata":{"createdAt":"2023-01-01T00:00:00Z","updatedAt":"2022-01-01T00:00:00Z"},"timestamp":"2021-01-01T00:00:00Z"}`,
			t2021, SourceMetadata},
		{"updatedAt beats createdAt and generatedAt", "a.json",
			`{"generatedAt":"2024-01-01T00:00:00Z","metadata":{"createdAt":"2023-01-01T00:00:00Z","updatedAt":"2022-01-01T00:00:00Z"}}`,
			t2022, SourceMetadata},
		{"createdAt beats generatedAt", "a.json",
			`{"generatedAt":"2024-01-01T00:00:00Z","metadata":{"createdAt":"2023-01-01T00:00:00Z"}}`, t2023, SourceMetadata},
		{"invalid timestamp falls to next field", "a.json",
			`{"timestamp":"2021-01-01 00:00:00","generatedAt":"2024-01-01T00:00:00Z"}`, t2024, SourceMetadata},
		{"non-string timestamp falls to next field", "a.json",
			`{"timestamp":1609459200,"metadata":{"updatedAt":"2022-01-01T00:00:00Z"}}`, t2022, SourceMetadata},
		{"object timestamp skipped", "a.json",
			`{"timestamp":{"timestamp":"2021-01-01T00:00:00Z"},"generatedAt":"2024-01-01T00:00:00Z"}`, t2024, SourceMetadata},
		{"fraction and offset floor", "a.json", `{"timestamp":"2021-01-01T09:00:00.999999+09:00"}`, t2021, SourceMetadata},
		{"before 1970 floors", "a.json", `{"timestamp":"1969-12-31T23:59:59.5Z"}`, -1, SourceMetadata},
		{"negative offset", "a.json", `{"timestamp":"2020-12-31T19:00:00-05:00"}`, t2021, SourceMetadata},
		{"other values skipped", "a.json",
			`{"a":[1,{"b":[true,null,"x"]},1e400],"c":{"d":{}},"timestamp":"2021-01-01T00:00:00Z","e":-0.5}`, t2021, SourceMetadata},
		{"whitespace around", "a.json", " \n\t{ \"timestamp\" : \"2021-01-01T00:00:00Z\" }\n ", t2021, SourceMetadata},
		{"exactly at the byte cap", "a.json", atCap, t2021, SourceMetadata},

		{"all invalid", "a.json", `{"timestamp":"yesterday","metadata":{"updatedAt":"","createdAt":"2021-13-01T00:00:00Z"},"generatedAt":"2021-01-01"}`, mtime, SourceMtime},
		{"nested timestamp does not count", "a.json", `{"data":{"timestamp":"2021-01-01T00:00:00Z"}}`, mtime, SourceMtime},
		{"timestamp in array does not count", "a.json", `{"items":[{"timestamp":"2021-01-01T00:00:00Z"}]}`, mtime, SourceMtime},
		{"metadata.timestamp does not count", "a.json", `{"metadata":{"timestamp":"2021-01-01T00:00:00Z"}}`, mtime, SourceMtime},
		{"top-level updatedAt does not count", "a.json", `{"updatedAt":"2021-01-01T00:00:00Z","createdAt":"2021-01-01T00:00:00Z"}`, mtime, SourceMtime},
		{"deep metadata does not count", "a.json", `{"x":{"metadata":{"updatedAt":"2021-01-01T00:00:00Z"}}}`, mtime, SourceMtime},
		{"metadata not an object", "a.json", `{"metadata":["updatedAt","2021-01-01T00:00:00Z"]}`, mtime, SourceMtime},
		{"keys are case-sensitive", "a.json", `{"Timestamp":"2021-01-01T00:00:00Z","generatedat":"2021-01-01T00:00:00Z"}`, mtime, SourceMtime},
		{"syntax error after timestamp", "a.json", `{"timestamp":"2021-01-01T00:00:00Z",}`, mtime, SourceMtime},
		{"truncated", "a.json", `{"timestamp":"2021-01-01T00:00:00Z"`, mtime, SourceMtime},
		{"trailing value", "a.json", `{"timestamp":"2021-01-01T00:00:00Z"} {}`, mtime, SourceMtime},
		{"trailing garbage", "a.json", `{"timestamp":"2021-01-01T00:00:00Z"}x`, mtime, SourceMtime},
		{"duplicate timestamp", "a.json", `{"timestamp":"2021-01-01T00:00:00Z","timestamp":"2022-01-01T00:00:00Z"}`, mtime, SourceMtime},
		{"duplicate metadata", "a.json", `{"metadata":{},"metadata":{"updatedAt":"2022-01-01T00:00:00Z"}}`, mtime, SourceMtime},
		{"duplicate updatedAt", "a.json", `{"metadata":{"updatedAt":"2022-01-01T00:00:00Z","updatedAt":"2022-01-01T00:00:00Z"}}`, mtime, SourceMtime},
		{"top-level array", "a.json", `[{"timestamp":"2021-01-01T00:00:00Z"}]`, mtime, SourceMtime},
		{"top-level string", "a.json", `"2021-01-01T00:00:00Z"`, mtime, SourceMtime},
		{"empty file", "a.json", ``, mtime, SourceMtime},
		{"not JSON", "a.json", `timestamp: 2021-01-01T00:00:00Z`, mtime, SourceMtime},
		{"beyond the byte cap", "a.json", big, mtime, SourceMtime},
		{"not a .json name", "a.txt", `{"timestamp":"2021-01-01T00:00:00Z"}`, mtime, SourceMtime},
		{".JSON is not *.json", "a.JSON", `{"timestamp":"2021-01-01T00:00:00Z"}`, mtime, SourceMtime},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, ".river/memory/"+tt.file, tt.content, epoch)
			res := scanRoot(t, root, skill.ScopeMemory, Options{Metadata: true})
			if len(res.Files) != 1 || len(res.Errors) != 0 {
				t.Fatalf("got %+v", res)
			}
			f := res.Files[0]
			if f.Timestamp != tt.want || f.TimestampSource != tt.source {
				t.Errorf("got %d (%s), want %d (%s); notes %+v", f.Timestamp, f.TimestampSource, tt.want, tt.source, res.Notes)
			}
			if f.MtimeNs != epoch.UnixNano() || f.Size != int64(len(tt.content)) {
				t.Errorf("identity changed: %+v", f)
			}
			// --timestamp mtime: never metadata.
			res = scanRoot(t, root, skill.ScopeMemory, Options{Metadata: false})
			if f := res.Files[0]; f.Timestamp != mtime || f.TimestampSource != SourceMtime {
				t.Errorf("mtime mode: got %d (%s)", f.Timestamp, f.TimestampSource)
			}
		})
	}
}

// FuzzParseMetadata checks that the one-pass scanner never panics, calls
// a document invalid exactly when json.Valid does, and on valid documents
// decides exactly as the earlier encoding/json token reader
// (parseMetadataRef). On invalid ones the reader may have stopped at a
// duplicate key first; the scanner says invalid, which takes precedence.
func FuzzParseMetadata(f *testing.F) {
	for _, s := range []string{
		`{"timestamp":"2021-01-01T00:00:00Z"}`,
		`{"metadata":{"updatedAt":"2022-01-01T00:00:00Z"},"x":[1,{}]}`,
		`{"generatedAt":"2024-01-01T00:00:00+01:00"}`, `[]`, `{`, `{"a":}`,
		`{"time\u0073tamp":"2021-01-01T00:00:00\u005a"}`, `{"timestamp":1,"timest\u0061mp":2}`,
		"{\"timestamp\":\"2021-01-01T00:00:00Z\xff\"}", `{"metadata":{"a":[{"b":"}"}],"createdAt":"2021-01-01T00:00:00Z"}}`,
		`{"timestamp":1,"timestamp":2,`, `{"metadata":{},"metadata":[}`, `{"a":-0.5e+3,"b":[true,false,null],"c":"\ud83d\ude00"}`,
		`{"a":01}`, `{"a":1.}`, `{"a":"\x"}`, "{\"a\":\"\x01\"}", `{"a":tru}`, `"timestamp"`, ` {} `, `{}{}`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001), `{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parseMetadata(data)
		valid := json.Valid(data)
		if errors.Is(err, errInvalid) == valid {
			t.Fatalf("%.80q: error %v, json.Valid %v", data, err, valid)
		}
		if !valid {
			return
		}
		ref, refErr := parseMetadataRef(strings.NewReader(string(data)))
		if st != ref || (err == nil) != (refErr == nil) || errors.Is(err, errAmbiguous) != errors.Is(refErr, errAmbiguous) {
			t.Errorf("%.80q: got %+v, %v; reference %+v, %v", data, st, err, ref, refErr)
		}
	})
}

// TestScanMetadataReasons: why a *.json file's metadata was not used is a
// typed reason on a Note; a file that simply has no field gets no Note.
func TestScanMetadataReasons(t *testing.T) {
	tests := []struct {
		content string
		reason  MetaReason // "" = no note
	}{
		{`{"timestamp":"2021-01-01T00:00:00Z"}`, ""},
		{`{"other":1}`, ""},
		{`{"timestamp":"x","timestamp":"y"}`, ReasonAmbiguous},
		{`{"time\u0073tamp":"2021-01-01T00:00:00Z","timestamp":"2021-01-01T00:00:00Z"}`, ReasonAmbiguous},
		{`{"timestamp":"2021-01-01T00:00:00Z"`, ReasonInvalid},
		{`["timestamp"]`, ReasonInvalid},
		{`{"pad":"` + strings.Repeat("x", MetadataByteCap) + `"}`, ReasonTooLarge},
	}
	for _, tt := range tests {
		root := t.TempDir()
		write(t, root, ".river/memory/a.json", tt.content, epoch)
		res := scanRoot(t, root, skill.ScopeMemory, Options{Metadata: true})
		var want []Note
		if tt.reason != "" {
			want = []Note{{Path: ".river/memory/a.json", Kind: NoteMetadataUnusable, Reason: tt.reason}}
		}
		if !slices.Equal(res.Notes, want) {
			t.Errorf("%.60q: notes %+v, want %+v", tt.content, res.Notes, want)
		}
	}
}
