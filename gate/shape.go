package gate

// The shapes the input schema gives its positions. The parser builds only
// what the schema looks at: the known objects and arrays, and the scalars
// at known positions. Everything else — the value of an unknown key, and a
// container where the schema expects something else (it reports only the
// type then) — is read in discard mode: checked exactly as strictly
// (syntax, UTF-8, duplicate keys, depth), but never built, so its memory is
// that of its open objects' key sets, not of its text.

// shape is what the schema expects at one position.
type shape uint8

const (
	shapeNone   shape = iota // an unknown key: nothing is looked at
	shapeObject              // an object whose known keys have shapes
	shapeArray               // an array of scalars (hardGuards, excludes) or entries (paths)
	shapeScalar              // a string, number, boolean or null; a container only fails the type
)

// seg is one segment of a JSON pointer: an object key (index -1) or an
// array index, kept as a number so that a long array costs no strings.
type seg struct {
	key   string
	index int
}

// is reports whether s is the object key k.
func (s seg) is(k string) bool { return s.index < 0 && s.key == k }

// keySegs makes segments of object keys (tests and callers that start
// inside a document).
func keySegs(keys ...string) []seg {
	out := make([]seg, len(keys))
	for i, k := range keys {
		out[i] = seg{key: k, index: -1}
	}
	return out
}

// shapeAt is the shape of the position at path (JSON pointer segments from
// the top-level object). It is only asked for positions whose parents had
// the shape asked for, so an index is always an element of an array the
// schema expects.
func shapeAt(path []seg) shape {
	key := func(i int) string {
		if path[i].index >= 0 {
			return ""
		}
		return path[i].key
	}
	switch len(path) {
	case 0:
		return shapeObject
	case 1:
		switch key(0) {
		case "inventory", "retention":
			return shapeObject
		case "now":
			return shapeScalar
		case "hardGuards", "derivedGuards", "excludes":
			return shapeArray
		}
	case 2:
		switch key(0) {
		case "inventory":
			switch key(1) {
			case "scope":
				return shapeScalar
			case "paths":
				return shapeArray
			}
		case "retention":
			switch key(1) {
			case "days", "maxEntries", "maxSizeMb":
				return shapeScalar
			}
		case "hardGuards", "derivedGuards", "excludes":
			if path[1].index >= 0 {
				return shapeScalar
			}
		}
	case 3:
		if key(0) == "inventory" && key(1) == "paths" && path[2].index >= 0 {
			return shapeObject
		}
	case 4:
		if key(0) == "inventory" && key(1) == "paths" && path[2].index >= 0 {
			switch key(3) {
			case "path", "sizeBytes", "mtimeEpoch", "type":
				return shapeScalar
			}
		}
	}
	return shapeNone
}

// builds reports whether the value starting with c at the current position
// is built (false: read in discard mode). Tests set buildAll to build
// everything, the oracle the discard mode is held to.
func (p *parser) builds(c byte) bool {
	if p.buildAll {
		return true
	}
	if p.discard > 0 {
		return false
	}
	switch shapeAt(p.path) {
	case shapeObject:
		return c != '['
	case shapeArray:
		return c != '{'
	case shapeScalar:
		return c != '{' && c != '['
	}
	return false
}
