//go:build linux

package config

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	bucket "github.com/plangate-gc/plangate-gc/internal/backend/s3"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gitindex"
)

// openRoot opens --root, the one place that tells a root's kind: a
// directory (gc.OpenRoot), or a bucket given as s3://BUCKET/PREFIX (SPEC
// H1). It sets c.RootName and returns the root's absolute local names,
// which --exclude patterns may start with (none for a bucket, where "/x"
// is gitignore's anchor, never a local path).
func (c *Config) openRoot(explicit bool) (*gc.Root, []string, error) {
	if bucket.IsRoot(c.Root) {
		root, err := openBucket(c.Root, c.Force && !c.DryRun)
		if err != nil {
			return nil, nil, err
		}
		c.RootName = root.Path
		return root, nil, nil
	}
	root, err := gc.OpenRoot(cmp.Or(c.Root, "."), explicit)
	if err != nil {
		return nil, nil, rootError(err)
	}
	names := localNames(root.Path)
	c.RootName = root.Path
	if len(names) > 0 {
		c.RootName = names[0]
	}
	return root, names, nil
}

// localNames are the absolute names of a directory root: as given, and
// with its symbolic links resolved.
func localNames(dir string) []string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	names := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		names = append(names, real)
	}
	return names
}

// openBucket opens a bucket root, configured from the AWS SDK's standard
// chain. It must hold an object under .river/ or artifacts/, as a
// directory root must hold one of them. For --force, the server must
// first prove that it honours the conditions river gc deletes by (SPEC
// H3); a server that ignores one is a config error naming it.
func openBucket(dir string, force bool) (*gc.Root, error) {
	ctx := context.Background()
	b, err := bucket.Open(ctx, dir)
	if errors.Is(err, bucket.ErrBadRoot) {
		return nil, Invalid("gc-cfg-bucket-root", q(dir))
	}
	if errors.Is(err, bucket.ErrBadTimeout) {
		return nil, Invalid("gc-cfg-bucket-timeout", bucket.TimeoutEnv, q(os.Getenv(bucket.TimeoutEnv)))
	}
	if err != nil {
		return nil, bucketErr(dir, err)
	}
	b.SingleCanary = gc.CanaryKey()
	root := gc.OpenObjects(b.Root(), b)
	found, err := holdsData(ctx, b)
	switch {
	case errors.Is(err, bucket.ErrNoSuchBucket):
		return nil, Invalid("gc-cfg-bucket-missing", q(root.Path), q(b.Name()))
	case err != nil:
		return nil, bucketErr(root.Path, err)
	case !found:
		return nil, Invalid("gc-cfg-root-not-river", q(root.Path))
	}
	if force {
		var ce *backend.ConditionError
		if err := gc.ProveConditions(ctx, b); errors.As(err, &ce) {
			return nil, Invalid("gc-cfg-bucket-condition", q(root.Path), ce.What)
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
		return Invalid("gc-cfg-bucket-redirect", q(root), q(re.Host), strconv.Itoa(re.Status))
	case errors.As(err, &se):
		return Invalid("gc-cfg-bucket-silent", q(root), se.Timeout, bucket.TimeoutEnv)
	case errors.As(err, &cu):
		return Invalid("gc-cfg-bucket-nocredentials", q(root))
	case errors.As(err, &ce):
		return Invalid("gc-cfg-bucket-credentials", q(root), ce.Code)
	case errors.As(err, &ue):
		return Invalid("gc-cfg-bucket-unreachable", q(root), q(ue.Host))
	case errors.Is(err, bucket.ErrNoRegion):
		return Invalid("gc-cfg-bucket-region", q(root))
	}
	return Invalid("gc-cfg-bucket", q(root), err.Error())
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

// trackedOf is the git index's tracked files of a root that has one (a
// directory); a bucket has no git index (the run's summary says so, SPEC
// H2). Tracked files are protected like hard guards (SPEC B2). An index
// that cannot be read protects nothing we could trust, so the run stops
// before anything is judged rather than risk a tracked file; so does a
// git environment variable river gc does not follow.
func trackedOf(root *gc.Root) (interface{ Contains(string) bool }, error) {
	fd, ok := root.Descriptor()
	if !ok {
		return nil, nil
	}
	if v := gitEnvOverride(os.Getenv); v != "" {
		return nil, Invalid("gc-cfg-git-env", v, v)
	}
	t, err := gitindex.Tracked(fd)
	if err != nil {
		return nil, &IndexError{Err: err}
	}
	if t == nil {
		return nil, nil
	}
	return t, nil
}

// gitEnvVars are the git environment variables (git(1), ENVIRONMENT)
// that change which repository, work tree or index git uses. river gc
// honours none of them: each, set non-empty, is a config error, so that
// no git setup can make a tracked file look untracked (SPEC B4).
// GIT_DISCOVERY_ACROSS_FILESYSTEM set to a false value is git's default
// and is accepted. Variables that only move objects or refs
// (GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_NAMESPACE)
// do not change the index and are ignored (decision 42).
var gitEnvVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_CEILING_DIRECTORIES"}

// gitEnvOverride returns the first of gitEnvVars that getenv reports set
// in a way river gc does not follow, or "".
func gitEnvOverride(getenv func(string) string) string {
	for _, v := range gitEnvVars {
		val := getenv(v)
		if v == "GIT_DISCOVERY_ACROSS_FILESYSTEM" && gitFalse(val) {
			continue
		}
		if val != "" {
			return v
		}
	}
	return ""
}

// gitFalse reports whether git's boolean parsing reads s as false
// ("false", "no", "off", "0", case-insensitive; git reads an unset or
// empty value as false too).
func gitFalse(s string) bool {
	switch strings.ToLower(s) {
	case "", "false", "no", "off", "0":
		return true
	}
	return false
}
