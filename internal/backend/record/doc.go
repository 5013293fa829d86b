// Package record is river gc's record of a --force run, written once
// for every root (SPEC I2): the intent journal's format, its writer and
// its one parser, recovery (what runs killed before their record did),
// and the lock rule that says which runs are provably over. Each backend
// gives only its primitives (Journals: append durably, list, read, the
// current identity of journaled names, remove or set aside; Lock: a
// flock or a lease object); this package decides nothing about deletion
// and words nothing.
//
// # Format
//
// Text lines, each ending in '\n'. A journal (a disk file, a bucket
// object) starts with Header. A run writes "run" when it first appends,
// then before each batch is acted on, "lease <unix-seconds>" when its
// lock has a lease, and one line per intent,
//
//	<op> <tag> <quoted key>
//
// (AppendLine): the op (delete, rewrite, temp), the tag the object was
// judged with — bare decimal fields for the disk's identity ("<dev>
// <ino> <size> <mtime-ns>", so every disk journal ever written reads
// unchanged), Go-quoted otherwise (a bucket's ETag) — and the key in Go
// quoted form (any byte, newline and invalid UTF-8 included, reads back
// exactly); "done" when its deletions and rewrites have ended. A line is
// at most MaxLine bytes and one append at most maxAppend; the writer
// writes nothing the reader would not read back exactly, and the reader
// reads every line that parses wherever it stands, counting the others
// (Recovered.Unreadable). A last line without '\n' is a write a kill cut
// short: its batch was never made durable, so nothing of it was acted
// on; it is ignored.
//
// # The lock rule
//
// One run at a time holds a root's lock (Lock): a disk's flock on the
// root directory, a bucket's lease object created only if absent and
// taken over, once its lease has run out, only by a conditional write on
// the tag read (LeaseLock). The lock is proven before every journal batch
// (Writer.Intend); a run whose lock is lost stops before its next batch
// and keeps its journal. A run is provably over — its journal is named
// and, once the next record is written, removed — when it wrote "done",
// when the lease its journal names has ended, when its stale lease was
// taken over, or, for a lock without a lease, when the lock is held by
// the run recovering or free (the kernel releases a flock when its
// process ends, so a killed disk run is over at once). Any other run is
// live: its journal is left alone, never named, never removed (SPEC B8
// 5); a dry-run beside a live holder names nothing (Recover).
//
// # Residual window
//
// The record over-reports, never under-reports: an intent is durable
// before its object is touched, so a kill between the two leaves a
// journaled object that still exists (not named: it is still the object
// journaled); only an object that vanished for another reason after the
// intent (another process deleted it) is named as the killed run's. An
// object a next run's record already names is named again if that run is
// killed after writing its record and before removing the journal. Only
// what reaches the store is a record: a journal on a file system that
// acknowledges fsync without persisting it is as weak as that file
// system.
package record
