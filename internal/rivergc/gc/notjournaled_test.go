//go:build linux

package gc

import (
	"errors"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stores"
)

// TestNotJournaledNamesTheReadFailure: when a killed run's journal could
// not be read, the errors[] entry that says how many deletions were not
// attempted is the read failure's, on every root, whatever order the
// root listed its journal errors in; an unreadable journal set aside is
// named as it is (the bucket's run once wrapped whichever entry came
// last).
func TestNotJournaledNamesTheReadFailure(t *testing.T) {
	cause := errors.New("list journals: connection reset")
	for _, order := range []string{"read failure first", "unreadable first"} {
		t.Run(order, func(t *testing.T) {
			failure := fserr.New(fserr.OpJournal, JournalDir, cause)
			aside := fserr.New(fserr.OpJournal, JournalDir+"run-1", &fserr.UnreadableJournalError{Lines: 3, SetAside: "x"})
			out := Outcome{Errors: []*fserr.Error{failure, aside}}
			if order == "unreadable first" {
				out.Errors = []*fserr.Error{aside, failure}
			}
			notJournaled(&out, judgement{targets: make([]sweep.Target, 4), rewrites: []rewriteJob{{Job: stores.Job{Count: 2}}}})
			var nj *fserr.NotJournaledError
			if !errors.As(failure.Err, &nj) || nj.Cause != cause || nj.NotAttempted != 6 {
				t.Errorf("read failure's entry: %v, want %q with 6 not attempted", failure.Err, cause)
			}
			var ue *fserr.UnreadableJournalError
			if !errors.As(aside.Err, &ue) || errors.As(aside.Err, &nj) {
				t.Errorf("unreadable journal's entry became %v", aside.Err)
			}
		})
	}
}
