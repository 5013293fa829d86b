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
