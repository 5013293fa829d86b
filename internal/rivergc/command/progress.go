//go:build linux

package command

import (
	"context"
	"io"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/progress"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
)

// runWithProgress runs river gc with the progress its stderr gets: a
// redrawn line on a terminal (not with --quiet or JSON on stdout), a line
// every Options.ProgressEvery elsewhere (not with --quiet), and writes the
// record when the run is done.
func (c *command) runWithProgress(ctx context.Context, cfg gc.Config, stdout, stderr io.Writer) error {
	lang := render.Lang(c.Lang)
	jsonOnStdout := c.JSON && c.OutputFile == ""
	terminal := isTerminal(stderr)
	if terminal && !c.Quiet && !jsonOnStdout {
		line := progress.New(stderr)
		cfg.Scanned = func(files int) {
			line.Update(render.Message(lang, "gc-progress-scan", strconv.Itoa(files)), false)
		}
		cfg.Progress = func(done, total int) {
			line.Update(render.Message(lang, "gc-progress-delete", strconv.Itoa(done), strconv.Itoa(total)), done == total)
		}
		// The progress line is cleared before the warnings about what
		// goes (warnings.go) and before the record is written.
		if warn := cfg.BeforeDelete; warn != nil {
			cfg.BeforeDelete = func(ws []gc.Warning) {
				line.Clear()
				warn(ws)
			}
		}
		cfg.Record = func(out gc.Outcome) (bool, error) {
			line.Clear()
			return c.record(out, cfg, stdout, stderr)
		}
		_, err := gc.Run(ctx, cfg)
		line.Clear()
		return err
	}
	if c.Quiet {
		cfg.Record = func(out gc.Outcome) (bool, error) { return c.record(out, cfg, stdout, stderr) }
		_, err := gc.Run(ctx, cfg)
		return err
	}
	// Off a terminal: a progress line every ProgressEvery while the
	// scopes are scanned and files deleted (SPEC B5), stopped before the
	// record is written.
	ticker := time.NewTicker(c.opt.ProgressEvery)
	defer ticker.Stop()
	log := progress.NewLog(stderr, ticker.C)
	defer log.Stop()
	var seen atomic.Int64
	var done, total atomic.Int64
	cfg.Seen = &seen
	log.Watch(func() string {
		return render.Message(lang, "gc-progress-log-scan", strconv.FormatInt(seen.Load(), 10))
	})
	cfg.Progress = func(d, t int) {
		if done.Load() == 0 && total.Load() == 0 {
			log.Watch(func() string {
				return render.Message(lang, "gc-progress-log-delete", strconv.FormatInt(done.Load(), 10),
					strconv.FormatInt(total.Load(), 10))
			})
		}
		done.Store(int64(d))
		total.Store(int64(t))
	}
	cfg.Record = func(out gc.Outcome) (bool, error) {
		log.Stop()
		return c.record(out, cfg, stdout, stderr)
	}
	_, err := gc.Run(ctx, cfg)
	return err
}
