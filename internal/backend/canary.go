package backend

import (
	"context"
	"errors"
	"fmt"
)

// ConditionError means the server accepted a precondition river gc
// relies on and did not honour it (SPEC H3): deleting there is refused.
type ConditionError struct {
	// What names the request whose condition was ignored, e.g.
	// "DeleteObjects with a wrong ETag deleted the object".
	What string
}

func (e *ConditionError) Error() string { return "the server ignores a condition: " + e.What }

// The requests whose conditions ProveConditions checks.
const (
	IgnoredIfNoneMatch = "PUT If-None-Match: * overwrote an existing object"
	IgnoredIfMatchPut  = "PUT If-Match with a wrong ETag overwrote the object"
	IgnoredIfMatchDel  = "DeleteObjects with a wrong ETag deleted the object"
)

// wrongTag is an ETag no object has (the MD5 form, all zeros).
const wrongTag = `"00000000000000000000000000000000"`

// ErrRightTagKept means a delete carrying an object's own ETag kept it:
// the run's deletions would all fail there.
var ErrRightTagKept = errors.New("a delete with the object's own ETag kept it")

// ProveConditions checks, on canary objects it creates below dir (a
// prefix private to the run, under a name no server can know in
// advance) and removes, that the server refuses what river gc's safety
// depends on, in the shape the run uses: a create over an existing
// object, an overwrite with a wrong ETag, and one delete request of
// batch keys (the run's batch size) that mixes wrong and right ETags at
// its start, middle and end. A server honouring conditions only for
// one-key batches, or only below a fixed canary name, fails it. It
// returns a *ConditionError naming the first condition ignored, or the
// failure that kept it from finding out.
func ProveConditions(ctx context.Context, b Backend, dir string, batch int) (err error) {
	canaries := make([]Object, 4) // wrong, right, wrong, right
	for i := range canaries {
		key := fmt.Sprintf("%s%d", dir, i)
		if canaries[i], err = PutOwn(ctx, b, key, []byte("river gc canary\n"), Cond{IfAbsent: true}); err != nil {
			return fmt.Errorf("canary %s: %w", key, err)
		}
	}
	defer func() { // the canaries left, on their own tags
		for i, derr := range b.Delete(ctx, canaries) {
			if derr != nil && !errors.Is(derr, ErrNotExist) && err == nil {
				err = fmt.Errorf("canary %s: %w", canaries[i].Key, derr)
			}
		}
	}()
	if err := provePuts(ctx, b, &canaries[0]); err != nil {
		return err
	}
	return proveBatch(ctx, b, dir, canaries, max(batch, len(canaries)))
}

// provePuts checks that a create over c and an overwrite of c with a
// wrong ETag are refused (*c follows a write that was not).
func provePuts(ctx context.Context, b Backend, c *Object) error {
	switch o, err := b.Put(ctx, c.Key, []byte("river gc canary, again\n"), Cond{IfAbsent: true}); {
	case err == nil:
		*c = o
		return &ConditionError{What: IgnoredIfNoneMatch}
	case !errors.Is(err, ErrChanged):
		return fmt.Errorf("canary %s: %w", c.Key, err)
	}
	switch o, err := b.Put(ctx, c.Key, []byte("river gc canary, replaced\n"), Cond{IfMatch: wrongTag}); {
	case err == nil:
		*c = o
		return &ConditionError{What: IgnoredIfMatchPut}
	case !errors.Is(err, ErrChanged):
		return fmt.Errorf("canary %s: %w", c.Key, err)
	}
	return nil
}

// proveBatch sends one delete of n keys: the canaries at the start,
// a third, two thirds and the end, the even ones with a wrong ETag, and
// between them keys that do not exist (each with a wrong ETag). The
// wrong ones must still be there, unchanged, and the right ones gone.
func proveBatch(ctx context.Context, b Backend, dir string, canaries []Object, n int) error {
	objs := make([]Object, n)
	at := []int{0, n / 3, 2 * n / 3, n - 1}
	for i := range objs {
		objs[i] = Object{Key: fmt.Sprintf("%sabsent-%06d", dir, i), Tag: wrongTag}
	}
	for k, i := range at {
		objs[i] = canaries[k]
		if k%2 == 0 {
			objs[i].Tag = wrongTag
		}
	}
	errs := b.Delete(ctx, objs)
	for k, i := range at {
		if k%2 == 1 {
			if errs[i] != nil {
				return fmt.Errorf("canary %s: %w: %w", canaries[k].Key, ErrRightTagKept, errs[i])
			}
			continue
		}
		// What the answer said of a wrong one (refused, or, after a
		// retry, unknown) matters less than whether it is still there.
		switch _, cur, err := b.Get(ctx, canaries[k].Key, 0); {
		case errors.Is(err, ErrNotExist):
			return &ConditionError{What: fmt.Sprintf("%s (in a batch of %d keys)", IgnoredIfMatchDel, n)}
		case err != nil:
			return fmt.Errorf("canary %s: %w", canaries[k].Key, err)
		case cur.Tag != canaries[k].Tag:
			return fmt.Errorf("canary %s: %w", canaries[k].Key, ErrChanged)
		}
	}
	return nil
}
