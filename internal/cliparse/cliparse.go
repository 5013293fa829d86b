// Package cliparse runs kong for both commands without letting it exit the
// process: kong ends --help and --version with exit(0) and parse errors
// with exit(80), while our commands map every outcome to their own exit
// codes in one place (SPEC A12, seed 000: usage errors exit 2).
package cliparse

import (
	"errors"

	"github.com/alecthomas/kong"
)

// errExited unwinds kong's exit hook back into Parse.
var errExited = errors.New("kong exited")

// Parse parses args into grammar. done is true when kong has already
// answered (help, version) and the command should stop with success; err
// is a parse error, for the caller to report as a usage error.
func Parse(grammar any, args []string, options ...kong.Option) (ctx *kong.Context, done bool, err error) {
	exited := false
	options = append(options, kong.Exit(func(int) { exited = true; panic(errExited) }))
	parser, err := kong.New(grammar, options...)
	if err != nil {
		return nil, false, err
	}
	defer func() {
		if r := recover(); r != nil {
			if r != errExited {
				panic(r)
			}
			ctx, done, err = nil, true, nil
		}
	}()
	ctx, err = parser.Parse(args)
	if exited {
		return nil, true, nil
	}
	return ctx, false, err
}
