package eval

import (
	"bytes"
	"io"

	"github.com/plangate-gc/plangate-gc/internal/pipeline"
)

// Judge renders an input stream as plangate-gc would print it on stdout.
type Judge func(input []byte, opts pipeline.Options) ([]byte, error)

// Production is the real skill, in-process.
func Production(input []byte, opts pipeline.Options) ([]byte, error) {
	var out bytes.Buffer
	err := pipeline.Run(bytes.NewReader(input), &out, io.Discard, opts)
	return out.Bytes(), err
}
