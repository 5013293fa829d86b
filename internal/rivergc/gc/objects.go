//go:build linux

package gc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/rewrite"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Objects is the backend of a root that is not a directory: an S3
// bucket below a key prefix (SPEC Part H). The run reaches it only
// through backend.Backend, plus what a bucket alone can say.
type Objects interface {
	backend.Backend
	// Versioned reports whether a delete leaves a delete marker (SPEC H5).
	Versioned(ctx context.Context) (bool, error)
	// Requests counts the requests sent, by kind (SPEC H6).
	Requests() map[string]int
}

// OpenObjects makes the root of a run on a bucket: path is the root as
// the user gave it (s3://BUCKET/PREFIX), shown in every record.
func OpenObjects(path string, b Objects) *Root {
	return &Root{Path: path, tree: &objectTree{path: path, b: b, tags: map[string]string{}}}
}

// objectTree is a bucket root: keys below a prefix, reached only
// through the backend seam and what a bucket alone can say (Objects).
type objectTree struct {
	path string
	b    Objects
	tags map[string]string // the ETag each object was judged by
}

// linkTarget finds no link: a bucket has no symlinks, so a single
// source is its own key.
func (t *objectTree) linkTarget(string) (target, link string, isDir bool, err error) {
	return "", "", false, nil
}

// emptiedRunDirs finds none: a prefix is no object of its own.
func (t *objectTree) emptiedRunDirs([]scan.File, []skill.Decision, bool) []runDir { return nil }

// heldDirs finds none: a bucket holds nothing under private names.
func (t *objectTree) heldDirs(Config, []string, *excludeUse) ([]heldDir, []string) { return nil, nil }

// tag is the ETag the object at key was judged by.
func (t *objectTree) tag(key string) string { return t.tags[key] }

// inFlight is false: a bucket holds nothing under private names, so
// nothing can be in flight.
func (t *objectTree) inFlight() bool { return false }

// relative takes a path as a key relative to the root (the root's
// s3:// form, or ./, in front are allowed).
func (t *objectTree) relative(rootPath, p string) (string, bool) {
	return path.Clean(strings.TrimPrefix(strings.TrimPrefix(p, rootPath+"/"), "./")), true
}

// kindAt cannot say: a bucket has no directories, links or special files.
func (t *objectTree) kindAt(string) (fserr.Kind, error, bool) { return 0, nil, false }

func (t *objectTree) close() error { return nil }

// The keys of a run's own objects below the root. None is in any scope
// (scopes are .river/memory, .river/tmp, .river/runs, artifacts/evals,
// artifacts/.tmp and the review-artifact names of artifacts/).
const (
	LockKey = ".river/gc-lock"
	// RootMarker keeps a bucket root a root once every artifact is gone:
	// a prefix has no directories to outlive its objects, and a root
	// holding nothing below .river/ or artifacts/ is refused as mistyped.
	RootMarker = ".river/gc-root"
	JournalDir = ".river/gc-journal/"
)

// canaryDir is this process's private prefix for its canary objects:
// .river/ and 32 random hex digits, a name no server can know in advance
// (SPEC B8 3). None of river gc's scopes holds it.
var canaryDir = sync.OnceValue(func() string {
	var b [16]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand.Read never fails (Go 1.24)
	return ".river/" + hex.EncodeToString(b[:]) + "/"
})

// CanaryKey is a fresh key below this process's canary prefix.
func CanaryKey() string {
	var b [8]byte
	rand.Read(b[:]) //nolint:errcheck // as in canaryDir
	return canaryDir() + hex.EncodeToString(b[:])
}

// metadataWorkers bounds the concurrent metadata reads of a bucket scan.
const metadataWorkers = 16

// scanScope lists one scope's key prefixes and builds the scan result
// the disk scan would give for the same tree (SPEC H2): regular objects
// only, review-artifacts not recursive and filtered by name, nested
// repositories (a key prefix holding a .git entry) not entered, metadata
// timestamps read from *.json bodies (at most scan.MetadataByteCap+1
// bytes each, metadataWorkers at a time), else LastModified as mtime.
func (t *objectTree) scanScope(cfg Config, scope skill.Scope) scan.Result {
	var res scan.Result
	dirs := scope.Dirs()
	if dirs == nil {
		res.Errors = append(res.Errors, fserr.New(fserr.OpOpenDir, ".", fserr.ErrUnknownScope))
		return res
	}
	ctx := context.Background()
	var objs []backend.Object
	for _, d := range dirs {
		var listed []backend.Object
		err := t.b.List(ctx, d+"/", func(o backend.Object) error {
			if cfg.Seen != nil { // the progress line counts keys as they are listed
				cfg.Seen.Add(1)
			}
			rest := strings.TrimPrefix(o.Key, d+"/")
			if scope == skill.ScopeReviewArtifacts && (strings.Contains(rest, "/") || !scan.IsReviewArtifactKey(rest)) {
				return nil
			}
			listed = append(listed, o)
			return nil
		})
		if err != nil {
			// A listing that stopped part-way is not judged at all: the
			// keys it did not show (a .git marker, a run's newest
			// timestamp) decide what the shown ones may lose.
			res.Errors = append(res.Errors, fserr.New(fserr.OpReadDir, d, err))
			continue
		}
		objs = append(objs, listed...)
	}
	objs, res.NestedRepos = withoutRepos(objs, dirs)
	res.Files = make([]scan.File, len(objs))
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, metadataWorkers)
	for i, o := range objs {
		f := &res.Files[i]
		*f = scan.File{Path: o.Key, Size: o.Size, Timestamp: floorSeconds(o.ModTimeNs), TimestampSource: scan.SourceMtime, MtimeNs: o.ModTimeNs}
		t.tags[o.Key] = o.Tag
		if !cfg.Metadata || !scan.IsJSONName(o.Key) || o.Size > scan.MetadataByteCap {
			if cfg.Metadata && scan.IsJSONName(o.Key) {
				mu.Lock() // the readers started so far append notes too
				res.Notes = append(res.Notes, scan.Note{Path: o.Key, Kind: scan.NoteMetadataUnusable, Reason: scan.ReasonTooLarge})
				mu.Unlock()
			}
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			body, got, err := t.b.Get(ctx, o.Key, scan.MetadataByteCap)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				// Judged by LastModified it could go although its body
				// says to keep it: not listed, an error (as on disk).
				res.Errors = append(res.Errors, fserr.New(fserr.OpReadMeta, o.Key, err))
				f.Path = ""
				return
			case got.Tag != o.Tag:
				res.Notes = append(res.Notes, scan.Note{Path: o.Key, Kind: scan.NoteMetadataUnusable, Reason: scan.ReasonReplaced})
				return
			}
			sec, ok, reason := scan.MetadataTimestamp(body, got.Size)
			switch {
			case reason != "":
				res.Notes = append(res.Notes, scan.Note{Path: o.Key, Kind: scan.NoteMetadataUnusable, Reason: reason})
			case ok:
				f.Timestamp, f.TimestampSource = sec, scan.SourceMetadata
			}
		}()
	}
	wg.Wait()
	res.Files = slices.DeleteFunc(res.Files, func(f scan.File) bool { return f.Path == "" })
	slices.SortFunc(res.Files, func(a, b scan.File) int { return strings.Compare(a.Path, b.Path) })
	scan.FinishObjects(scope, res.Files, cfg.Metadata)
	sortScan(&res)
	return res
}

// withoutRepos drops the objects inside a nested repository: a key
// prefix below a scope directory that directly holds a .git object (a
// gitdir file) or .git/ prefix. It returns the rest and the repositories
// (sorted), as the disk scan names them.
func withoutRepos(objs []backend.Object, dirs []string) ([]backend.Object, []string) {
	var repos []string
	for _, o := range objs {
		for _, d := range dirs {
			rest, ok := strings.CutPrefix(o.Key, d+"/")
			if !ok {
				continue
			}
			segs := strings.Split(rest, "/")
			if i := slices.Index(segs, ".git"); i >= 0 {
				repos = append(repos, path.Join(append([]string{d}, segs[:i]...)...))
			}
		}
	}
	slices.Sort(repos)
	repos = slices.Compact(repos)
	// A repository at the scope directory itself protects the scope whole.
	kept := slices.DeleteFunc(objs, func(o backend.Object) bool {
		for _, r := range repos {
			if o.Key == r || strings.HasPrefix(o.Key, r+"/") {
				return true
			}
		}
		return false
	})
	return kept, repos
}

// sortScan puts a scan result's errors and notes in the disk scan's order.
func sortScan(res *scan.Result) {
	slices.SortFunc(res.Errors, func(a, b *fserr.Error) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(res.Notes, func(a, b scan.Note) int { return strings.Compare(a.Path, b.Path) })
}

// readStore reads an entry scope's single source from the bucket:
// its bytes and, as an identity, its size and LastModified (the mtime
// its entries without a timestamp are judged by); the ETag read is kept
// for the conditional write back.
func (t *objectTree) readStore(_ Config, rel string) ([]byte, rewrite.Ident, error) {
	data, obj, err := t.b.Get(context.Background(), rel, storeByteCap)
	if errors.Is(err, backend.ErrNotExist) {
		return nil, rewrite.Ident{}, os.ErrNotExist
	}
	if err != nil {
		return nil, rewrite.Ident{}, err
	}
	if int64(len(data)) > storeByteCap {
		return nil, rewrite.Ident{}, fserr.ErrTooLarge
	}
	t.tags[rel] = obj.Tag
	return data, rewrite.Ident{Size: obj.Size, MtimeNs: obj.ModTimeNs}, nil
}

// storeByteCap bounds a single source read from a bucket.
const storeByteCap = 1 << 30
