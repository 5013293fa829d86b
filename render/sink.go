package render

import (
	"io"
)

// Sink receives the documents of one input stream in order and writes
// their output: at once, one block per document, or (merged) one document
// for all of them at Close.
type Sink interface {
	Add(Document) error
	Close() error
}

// NewSink returns the sink of format f. merge asks for exactly one findings
// document or Review Artifact for the whole stream; it applies to
// FormatFindings and FormatArtifact only (the caller refuses the others).
func NewSink(w io.Writer, f Format, lang Lang, merge bool) Sink {
	switch {
	case merge && (f == FormatFindings || f == FormatArtifact):
		return &mergeSink{w: w, format: f, lang: lang}
	case f == FormatReview:
		return &reviewSink{w: w, lang: lang}
	}
	return &streamSink{w: w, write: Writer(f), lang: lang}
}

type streamSink struct {
	w     io.Writer
	write func(io.Writer, Document, Lang) error
	lang  Lang
}

func (s *streamSink) Add(d Document) error { return s.write(s.w, d, s.lang) }
func (s *streamSink) Close() error         { return nil }

// reviewSink writes review lines per document and NO_ISSUES at the end of
// a stream that had no finding at all (NO_ISSUES anywhere else would make
// River Review drop every other line).
type reviewSink struct {
	w     io.Writer
	lang  Lang
	lines int
}

func (s *reviewSink) Add(d Document) error {
	n, err := writeReview(s.w, d, s.lang)
	s.lines += n
	return err
}

func (s *reviewSink) Close() error {
	if s.lines > 0 {
		return nil
	}
	_, err := io.WriteString(s.w, NoIssues+"\n")
	return err
}

type mergeSink struct {
	w      io.Writer
	format Format
	lang   Lang
	docs   []Document
}

func (s *mergeSink) Add(d Document) error { s.docs = append(s.docs, d); return nil }

func (s *mergeSink) Close() error {
	if s.format == FormatArtifact {
		return MergedArtifact(s.w, s.docs, s.lang)
	}
	return MergedFindings(s.w, s.docs, s.lang)
}
