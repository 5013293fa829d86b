//go:build linux

package main

import (
	"cmp"
	"context"
	"errors"
	"os"
	"strconv"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	bucket "github.com/plangate-gc/plangate-gc/internal/backend/s3"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gitindex"
)

// openAnyRoot opens --root: a directory (gc.OpenRoot), or a bucket given
// as s3://BUCKET/PREFIX (SPEC H1), configured from the AWS SDK's standard
// chain. A bucket root must hold an object under .river/ or artifacts/,
// as a directory root must hold one of them. For --force, the server must
// first prove that it honours the conditions river gc deletes by (SPEC
// H3); a server that ignores one is a config error naming it.
func openAnyRoot(dir string, explicit, force bool) (*gc.Root, error) {
	if !bucket.IsRoot(dir) {
		root, err := gc.OpenRoot(cmp.Or(dir, "."), explicit)
		if err != nil {
			return nil, rootError(err)
		}
		return root, nil
	}
	ctx := context.Background()
	b, err := bucket.Open(ctx, dir)
	if errors.Is(err, bucket.ErrBadRoot) {
		return nil, configErr("gc-cfg-bucket-root", q(dir))
	}
	if errors.Is(err, bucket.ErrBadTimeout) {
		return nil, configErr("gc-cfg-bucket-timeout", bucket.TimeoutEnv, q(os.Getenv(bucket.TimeoutEnv)))
	}
	if err != nil {
		return nil, bucketErr(dir, err)
	}
	b.SingleCanary = gc.CanaryKey()
	root := gc.OpenObjects(b.Root(), b)
	found, err := holdsData(ctx, b)
	switch {
	case errors.Is(err, bucket.ErrNoSuchBucket):
		return nil, configErr("gc-cfg-bucket-missing", q(root.Path), q(b.Name()))
	case err != nil:
		return nil, bucketErr(root.Path, err)
	case !found:
		return nil, configErr("gc-cfg-root-not-river", q(root.Path))
	}
	if force {
		var ce *backend.ConditionError
		if err := gc.ProveConditions(ctx, b); errors.As(err, &ce) {
			return nil, configErr("gc-cfg-bucket-condition", q(root.Path), ce.What)
		} else if err != nil {
			return nil, bucketErr(root.Path, err)
		}
	}
	return root, nil
}

// bucketErr words a failure to use the bucket at root: refused
// credentials, no region and an unreachable endpoint in the project's
// words (what to check), anything else with the error's own text.
func bucketErr(root string, err error) error {
	var ce *bucket.CredentialsError
	var ue *bucket.UnreachableError
	var cu *bucket.CredentialsUnavailableError
	var se *bucket.SilentError
	var re *bucket.RedirectError
	switch {
	case errors.As(err, &re):
		return configErr("gc-cfg-bucket-redirect", q(root), q(re.Host), strconv.Itoa(re.Status))
	case errors.As(err, &se):
		return configErr("gc-cfg-bucket-silent", q(root), se.Timeout, bucket.TimeoutEnv)
	case errors.As(err, &cu):
		return configErr("gc-cfg-bucket-nocredentials", q(root))
	case errors.As(err, &ce):
		return configErr("gc-cfg-bucket-credentials", q(root), ce.Code)
	case errors.As(err, &ue):
		return configErr("gc-cfg-bucket-unreachable", q(root), q(ue.Host))
	case errors.Is(err, bucket.ErrNoRegion):
		return configErr("gc-cfg-bucket-region", q(root))
	}
	return configErr("gc-cfg-bucket", q(root), err.Error())
}

// errFound stops a listing at its first object.
var errFound = errors.New("found")

// holdsData reports whether the bucket root holds an object below
// .river/ or artifacts/ (at most one list request each).
func holdsData(ctx context.Context, b *bucket.Bucket) (bool, error) {
	for _, p := range []string{".river/", "artifacts/"} {
		err := b.List(ctx, p, func(backend.Object) error { return errFound })
		if errors.Is(err, errFound) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
	return false, nil
}

// hasGitIndex reports whether the root can have a git index: a
// directory can, a bucket cannot.
func hasGitIndex(root *gc.Root) bool {
	_, ok := root.Descriptor()
	return ok
}

// trackedOf is the git index's tracked files of a directory root; a
// bucket has no git index (the run's summary says so, SPEC H2).
func trackedOf(root *gc.Root) (interface{ Contains(string) bool }, error) {
	fd, ok := root.Descriptor()
	if !ok {
		return nil, nil
	}
	t, err := gitindex.Tracked(fd)
	if err != nil || t == nil {
		return nil, err
	}
	return t, nil
}
