package render

import (
	"io"
)

// FormatReview is review lines River Review's engine keeps (SPEC C2).
const FormatReview Format = "review"

// NoIssues is River Review's own word for "nothing to report": its line
// parser returns no findings for it. A review stream without any finding
// ends with it, so that an empty result is said, not implied.
const NoIssues = "NO_ISSUES"

// internalSeverity maps the output schema's severity to the vocabulary of
// River Review's line protocol (blocker|warning|nit).
func internalSeverity(s string) string {
	switch s {
	case sevCritical:
		return "blocker"
	case sevMajor:
		return "warning"
	}
	return "nit"
}

// appendReviewLine appends f as one line River Review's engine keeps:
//
//	<file>:1: Finding: … Impact: … Fix: … Severity: … Confidence: high Evidence: …
//
// Every label its format check asks for is present, and Evidence comes last
// so that the first 60 characters River Review fingerprints hold only what
// stays while the verdict holds. Line 1 stands for the whole file.
func appendReviewLine(b []byte, f *finding, lang Lang) []byte {
	why, fix := f.whyFix(lang)
	b = appendTextPath(b, f.file) // quoted as in the text format, so the reader gets the true path
	b = append(b, ":1: Finding: "...)
	b = append(b, f.prefix()...)
	b = append(b, f.title...)
	b = append(b, " Impact: "...)
	b = append(b, why...)
	b = append(b, " Fix: "...)
	b = append(b, fix...)
	b = append(b, " Severity: "...)
	b = append(b, internalSeverity(f.severity)...)
	b = append(b, " Confidence: high Evidence: "...)
	b = append(b, f.line...)
	return append(b, '\n')
}

// Review writes the review lines of d: one line per finding, in the order
// of Issues. A document with no finding writes nothing (see ReviewSink).
func Review(w io.Writer, d Document, lang Lang) error {
	_, err := writeReview(w, d, lang)
	return err
}

func writeReview(w io.Writer, d Document, lang Lang) (int, error) {
	fs := findings(&d, lang)
	var b []byte
	for i := range fs {
		b = appendReviewLine(b, &fs[i], lang)
		if len(b) > 1<<16 {
			if _, err := w.Write(b); err != nil {
				return 0, err
			}
			b = b[:0]
		}
	}
	_, err := w.Write(b)
	return len(fs), err
}
