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

// ProveConditions checks, on a canary object at key that it creates and
// removes, that the server refuses what river gc's safety depends on: a
// create over an existing object, an overwrite and a delete with a wrong
// ETag. It returns a *ConditionError naming the first condition ignored,
// or the failure that kept it from finding out.
func ProveConditions(ctx context.Context, b Backend, key string) (err error) {
	obj, err := PutOwn(ctx, b, key, []byte("river gc canary\n"), Cond{IfAbsent: true})
	if err != nil {
		return fmt.Errorf("canary %s: %w", key, err)
	}
	defer func() {
		if derr := b.Delete(ctx, []Object{obj})[0]; derr != nil && !errors.Is(derr, ErrNotExist) && err == nil {
			err = fmt.Errorf("canary %s: %w", key, derr)
		}
	}()
	switch o, err := b.Put(ctx, key, []byte("river gc canary, again\n"), Cond{IfAbsent: true}); {
	case err == nil:
		obj = o
		return &ConditionError{What: IgnoredIfNoneMatch}
	case !errors.Is(err, ErrChanged):
		return fmt.Errorf("canary %s: %w", key, err)
	}
	switch o, err := b.Put(ctx, key, []byte("river gc canary, replaced\n"), Cond{IfMatch: wrongTag}); {
	case err == nil:
		obj = o
		return &ConditionError{What: IgnoredIfMatchPut}
	case !errors.Is(err, ErrChanged):
		return fmt.Errorf("canary %s: %w", key, err)
	}
	wrong := obj
	wrong.Tag = wrongTag
	switch err := b.Delete(ctx, []Object{wrong})[0]; {
	case err == nil || errors.Is(err, ErrNotExist):
		return &ConditionError{What: IgnoredIfMatchDel}
	case !errors.Is(err, ErrChanged):
		return fmt.Errorf("canary %s: %w", key, err)
	}
	return nil
}
