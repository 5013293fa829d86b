//go:build linux

package report

import (
	"errors"
	"path"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// ErrorText words a typed file-system error for errors[] (English, so
// that the JSON stays stable) and for stderr (in lang).
func ErrorText(e *fserr.Error, lang render.Lang) string {
	if errors.Is(e.Err, fserr.ErrNotUTF8) {
		if e.Op == fserr.OpOpenDir {
			return render.Message(lang, "gc-err-not-utf8-dir")
		}
		return render.Message(lang, "gc-err-not-utf8-file")
	}
	cause := causeText(e.Err, lang)
	switch e.Op {
	case fserr.OpDelete:
		var errno unix.Errno
		if errors.As(e.Err, &errno) {
			return render.Message(lang, "gc-err-op-delete", cause)
		}
		return cause
	case fserr.OpOpenRoot, fserr.OpOpenDir, fserr.OpReadDir, fserr.OpStat, fserr.OpReadMeta, fserr.OpJudge,
		fserr.OpRestore, fserr.OpLock, fserr.OpJournal, fserr.OpReadStore, fserr.OpRewrite, fserr.OpPlan:
		return render.Message(lang, "gc-err-op-"+string(e.Op), cause)
	}
	return string(e.Op) + ": " + cause
}

// causeText words the cause of an error: the typed causes from the
// catalog, a system errno as the system names it.
func causeText(err error, lang render.Lang) string {
	if err == nil {
		return "?"
	}
	var (
		held    *fserr.HeldError
		heldDir *fserr.HeldDirError
		intr    *fserr.InterruptedError
		notJ    *fserr.NotJournaledError
		changed *fserr.ChangedError
		kind    *fserr.KindError
		owner   *fserr.OwnerError
		size    *fserr.CopySizeError
		unread  *fserr.UnreadableJournalError
		errno   unix.Errno
		pc      *fserr.PlanChangedError
		pk      *fserr.PlanKeptError
	)
	switch {
	case errors.As(err, &pc):
		return render.Message(lang, "gc-err-plan-changed", strings.Join(pc.Fields, ", "))
	case errors.As(err, &pk):
		return render.Message(lang, "gc-err-plan-kept", planRule(pk.Rule, lang))
	case errors.As(err, &unread):
		if unread.SetAside == "" {
			return render.Message(lang, "gc-err-journal-unreadable-kept", strconv.Itoa(unread.Lines))
		}
		return render.Message(lang, "gc-err-journal-unreadable", strconv.Itoa(unread.Lines), Display(unread.SetAside))

	case errors.As(err, &held):
		key := "gc-err-held"
		if !errors.Is(held.Why, fserr.ErrNameTaken) {
			key = "gc-err-held-other"
		}
		return render.Message(lang, key, causeText(held.Cause, lang), held.Private, causeText(held.Why, lang))
	case errors.As(err, &heldDir):
		return render.Message(lang, "gc-err-held-dir", heldDir.Private, causeText(heldDir.Why, lang))
	case errors.As(err, &notJ):
		return render.Message(lang, "gc-err-not-journaled", causeText(notJ.Cause, lang), strconv.Itoa(notJ.NotAttempted))
	case errors.As(err, &intr):
		return render.Message(lang, "gc-err-interrupted", strconv.Itoa(intr.NotAttempted))
	case errors.As(err, &changed):
		fields := make([]string, len(changed.Fields))
		for i, f := range changed.Fields {
			fields[i] = string(f)
		}
		return render.Message(lang, "gc-err-changed", strings.Join(fields, ", "))
	case errors.As(err, &kind):
		key := "gc-err-not-regular"
		if errors.Is(kind.Want, fserr.ErrNotDir) {
			key = "gc-err-not-dir"
		}
		return render.Message(lang, key) + " (" + kind.Kind.String() + ")"
	case errors.As(err, &owner):
		return render.Message(lang, "gc-err-owner", strconv.FormatUint(uint64(owner.UID), 10), strconv.FormatUint(uint64(owner.GID), 10))
	case errors.As(err, &size):
		return render.Message(lang, "gc-err-copy-size", strconv.FormatInt(size.Got, 10), strconv.FormatInt(size.Want, 10))
	case errors.As(err, &errno):
		return errno.Error()
	}
	for _, s := range []struct {
		err error
		key string
	}{{fserr.ErrLocked, "gc-err-locked"}, {fserr.ErrTooLarge, "gc-err-too-large"}, {fserr.ErrOtherMount, "gc-err-other-mount"},
		{fserr.ErrNotRegular, "gc-err-not-regular"}, {fserr.ErrNotDir, "gc-err-not-dir"}, {fserr.ErrChanged, "gc-err-changed-any"},
		{fserr.ErrUnknownScope, "gc-err-unknown-scope"}, {fserr.ErrPrivateExists, "gc-err-private-exists"},
		{fserr.ErrNameTaken, "gc-err-name-taken"}, {fserr.ErrBadPath, "gc-err-bad-path"}, {fserr.ErrNotStore, "gc-err-not-store"},
		{fserr.ErrJournalCorrupt, "gc-err-journal-corrupt"}, {fserr.ErrLinked, "gc-err-linked"},
		{fserr.ErrNotJournalable, "gc-err-not-journalable"}} {
		if errors.Is(err, s.err) {
			return render.Message(lang, s.key)
		}
	}
	return err.Error()
}

// englishKind names a file kind with its article, for English notes.
var englishKind = map[string]string{
	"symlink": "a symlink", "directory": "a directory", "fifo": "a FIFO", "socket": "a socket",
	"char-device": "a character device", "block-device": "a block device", "regular": "a regular file",
	"unknown": "of unknown type",
}

// NoteText words a scan note for --debug.
func NoteText(scope skill.Scope, n scan.Note, lang render.Lang) string {
	kind := n.FileKind.String()
	if lang == render.English {
		kind = englishKind[n.FileKind.String()]
	}
	dir := "" // the scope directory a missing or odd parent stands for
	for _, d := range scope.Dirs() {
		if d == n.Path || strings.HasPrefix(d, n.Path+"/") {
			dir = d
		}
	}
	switch n.Kind {
	case scan.NoteMissing:
		return render.Message(lang, "gc-note-missing", dir)
	case scan.NoteSymlink, scan.NoteNotDir:
		if dir != "" {
			return render.Message(lang, "gc-note-not-dir", kind, dir)
		}
		return render.Message(lang, "gc-note-special", kind)
	case scan.NoteSpecial:
		return render.Message(lang, "gc-note-special", kind)
	case scan.NoteOtherMount:
		return render.Message(lang, "gc-note-other-mount")
	case scan.NoteNestedRepo:
		return render.Message(lang, "gc-note-nested-repo")
	case scan.NoteChanged:
		return render.Message(lang, "gc-note-changed", kind)
	case scan.NoteMetadataUnusable:
		why := string(n.Reason)
		if n.Err != nil {
			why += ": " + causeText(n.Err, lang)
		}
		return render.Message(lang, "gc-note-metadata", why)
	}
	return string(n.Kind)
}

// WarningText words one of river gc's warnings as something to act on.
func WarningText(w gc.Warning, lang render.Lang) string {
	n, total := strconv.Itoa(w.N), strconv.Itoa(w.Total)
	switch w.Kind {
	case gc.WarnDanglingSingleSource, gc.WarnSingleSourceOutsideRoot, gc.WarnSingleSourceLoop, gc.WarnSingleSourceNotDir:
		return render.Message(lang, "gc-warn-"+string(w.Kind), Display(w.Path), Display(w.Target))
	case gc.WarnSingleSourceUndecided:
		return render.Message(lang, "gc-warn-"+string(w.Kind), Display(w.Path), Display(w.Target),
			causeText(w.Err, lang), Display(path.Dir(w.Path)))
	case gc.WarnUnusedExclude:
		if w.Target != "" {
			return render.Message(lang, "gc-unused-exclude-root", Display(w.Path), Display(w.Target))
		}
		return render.Message(lang, "gc-warn-"+string(w.Kind), Display(w.Path))
	case gc.WarnRootFixture, gc.WarnRootInWorkTree:
		return render.Message(lang, "gc-warn-"+string(w.Kind), Display(w.Path), Display(w.Target))
	case gc.WarnTrackedJournal:
		return render.Message(lang, "gc-warn-"+string(w.Kind), Display(w.Path), Display(w.Path), Display(w.Target))
	case gc.WarnAggressive:
		return render.Message(lang, "gc-warn-"+string(w.Kind), string(w.Scope), n, total)
	case gc.WarnFreshRemoved:
		p, sc := printer{lang}, string(w.Scope)
		flags := []any{sc}
		if w.Target == "count,size" {
			flags = append(flags, sc)
		}
		return p.Sprintf("gc-warn-"+string(w.Kind), sc, n, p.Sprintf("gc-limit-"+w.Target), Display(w.Path),
			Duration(w.Age, lang), p.Sprintf("gc-flag-"+w.Target, flags...))
	case gc.WarnUnjudgeableName, gc.WarnFutureTimestamp, gc.WarnUnusableTimestamp, gc.WarnNestedRepo, gc.WarnUnreadableEntry,
		gc.WarnUndecidedEntry:
		return render.Message(lang, "gc-warn-"+string(w.Kind), string(w.Scope), n, Display(w.Path))
	case gc.WarnUnprotectedDelete:
		return render.Message(lang, "gc-warn-"+string(w.Kind), n)
	case gc.WarnRestored, gc.WarnLeftover, gc.WarnInFlight:
		return render.Message(lang, "gc-warn-"+string(w.Kind), n, Display(w.Path))
	case gc.WarnHeldDir:
		key := "gc-warn-" + string(w.Kind) // found; the next --force run puts it back
		if w.Target == "restored" || w.Target == "stays" {
			key = "gc-" + string(w.Kind) + "-" + w.Target
		}
		return render.Message(lang, key, Display(heldOriginal(w.Path)), n, Display(w.Path))
	case gc.WarnNoGitIndex:
		return render.Message(lang, "gc-warn-"+string(w.Kind), Display(w.Path))
	case gc.WarnVersioned:
		return render.Message(lang, "gc-warn-"+string(w.Kind), Display(w.Path), n)
	case gc.WarnPlanApplied:
		return render.Message(lang, "gc-warn-"+string(w.Kind), n)
	case gc.WarnPlanGone:
		return render.Message(lang, "gc-warn-"+string(w.Kind), total, n, Display(w.Path))
	case gc.WarnNotPlanned:
		return render.Message(lang, "gc-warn-"+string(w.Kind), n, Display(w.Path))
	}
	return string(w.Kind)
}

// TrackedJournalText words a --force run refused because the git index
// tracks rel, a name river gc keeps its intent journal under
// (fserr.ErrTrackedJournal): what to do about it (decision 346).
func TrackedJournalText(rel string, lang render.Lang) string {
	return render.Message(lang, "gc-cfg-journal-tracked", Display(rel), Display(rel), Display(gc.JournalIgnore(rel)))
}

// RootLine words the root a run uses, for --debug (SPEC B4: the chosen
// root is always printed).
func RootLine(root string, lang render.Lang) string {
	return render.Message(lang, "gc-debug-root", Display(root))
}

// Duration words a span of seconds as the glossary spells durations:
// "90 days 16 h 24 min" (「90 日 16 時間 24 分」), each unit shown when
// not zero, seconds only when the span is not whole minutes.
func Duration(secs int64, lang render.Lang) string {
	p := printer{lang}
	secs = max(secs, 0)
	d, h, m, s := secs/86400, secs%86400/3600, secs%3600/60, secs%60
	var parts []string
	if d > 0 {
		key := "gc-dur-days"
		if d == 1 {
			key = "gc-dur-day"
		}
		parts = append(parts, p.Sprintf(key, strconv.FormatInt(d, 10)))
	}
	for _, u := range []struct {
		key string
		n   int64
	}{{"gc-dur-h", h}, {"gc-dur-min", m}, {"gc-dur-s", s}} {
		if u.n > 0 {
			parts = append(parts, p.Sprintf(u.key, strconv.FormatInt(u.n, 10)))
		}
	}
	if len(parts) == 0 {
		return p.Sprintf("gc-dur-s", "0")
	}
	return strings.Join(parts, " ")
}

// heldOriginal is the path a held directory's private path p had.
func heldOriginal(p string) string {
	dir, name := path.Split(p)
	return dir + strings.TrimPrefix(name, scan.LeftoverPrefix)
}

// planRule words the rule that keeps a planned item now (SPEC J2).
func planRule(rule string, lang render.Lang) string {
	switch gc.Verdict(rule) {
	case gc.VerdictTracked, gc.VerdictExcluded, gc.VerdictGuarded, gc.VerdictLive, gc.VerdictNewestTwo, gc.VerdictUnreadableLine, gc.VerdictFresh:
		return render.Message(lang, "gc-plan-rule-"+rule)
	}
	return render.Message(lang, "gc-plan-rule-policy", rule)
}
