// Package schemas embeds the JSON Schemas that are the gate's authority.
//
// The schema text is the single definition of a valid skill document; the
// gate compiles it once and any faster path must agree with it.
package schemas

import _ "embed"

// InputID is the fixed $id the input schema is registered under, so that no
// file path or working directory ever appears in a validation message.
const InputID = "urn:plangate-gc:schema:input:v1"

// Input is the JSON Schema (draft 2020-12) of one skill input document.
//
//go:embed input.schema.json
var Input []byte

// ResultID and GCResultID are the $ids of the published output schemas.
const (
	ResultID   = "urn:plangate-gc:schema:result:v1"
	GCResultID = "urn:plangate-gc:schema:gc-result:v1"
)

// Result is the JSON Schema (draft 2020-12) of one line of
// `plangate-gc --json` (SPEC A11).
//
//go:embed result.schema.json
var Result []byte

// GCResult is the JSON Schema (draft 2020-12) of `river-gc --json`.
//
//go:embed gc-result.schema.json
var GCResult []byte

// ByName returns the schema called name: "result", "gc-result", or the
// input schema for anything else.
func ByName(name string) []byte {
	switch name {
	case "result":
		return Result
	case "gc-result":
		return GCResult
	}
	return Input
}
