// Package pipeline is the one-way flow of the skill: bytes → gate → skill
// → render. Both the plangate-gc command and the evaluation harness call
// it, so what the harness checks is exactly what users run.
package pipeline

import (
	"errors"
	"fmt"
	"io"

	"github.com/plangate-gc/plangate-gc/gate"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Options select the output form.
type Options struct {
	JSON bool
	Lang render.Lang
	// Format, when set, overrides JSON (render.NewSink picks the renderer).
	Format render.Format
	// Merge writes one findings document or Review Artifact for the whole
	// stream (Format findings or artifact only).
	Merge bool
}

// Run gates, judges and renders every document of in, in input order:
// output blocks to out, gate reasons to reasons. Verdicts (NO_REVIEW,
// handoff) are output; the returned error is an I/O failure: a
// *gate.ReadError (errors.Is gate.ErrRead) when reading in failed, after the
// outputs of every document completed before it have been written.
func Run(in io.Reader, out, reasons io.Writer, opts Options) error {
	format := render.FormatText
	if opts.JSON {
		format = render.FormatJSON
	}
	if opts.Format != "" {
		format = opts.Format
	}
	sink := render.NewSink(out, format, opts.Lang, opts.Merge)
	docs := gate.NewReader(in)
	for {
		input, err := docs.Next()
		if errors.Is(err, io.EOF) {
			if err := sink.Close(); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			return nil
		}
		var doc render.Document
		var verdict *gate.Error
		switch {
		case errors.As(err, &verdict):
			doc.Gate = gateVerdict(verdict)
			if err := render.GateReasons(reasons, doc.Gate); err != nil {
				return fmt.Errorf("writing gate reasons: %w", err)
			}
		case err != nil:
			return err
		default:
			res, err := skill.Judge(input)
			if err != nil { // the gate admitted what the skill refuses: a bug
				return fmt.Errorf("judging a gated document: %w", err)
			}
			doc.Input, doc.Result = input, res
		}
		if err := sink.Add(doc); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
}

// gateVerdict hands the gate's reasons to render.
func gateVerdict(e *gate.Error) *render.GateVerdict {
	v := &render.GateVerdict{Problems: make([]render.GateProblem, len(e.Problems))}
	for i, p := range e.Problems {
		v.Problems[i] = render.GateProblem{Pointer: p.Pointer, Message: p.Message}
	}
	return v
}
