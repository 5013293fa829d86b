package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/backend"
)

// maxObjectBytes is how much of a journal object recovery reads: far
// above what any writer of this format ever wrote (the earliest wrote up
// to 10,000 intents an object whatever their length, at most 10,000 × (4
// × 1024 + 100) bytes, 42 MB; a Writer's appends are at most maxAppend),
// so that it reads whatever a writer can write (SPEC B8 7).
const maxObjectBytes = 64 << 20

// AsideSuffix follows the journal prefix's name in the prefix unreadable
// journal objects are set aside under (".river/gc-journal/" →
// ".river/gc-journal-unreadable/"): outside the journal, so that no
// later run reads them.
const AsideSuffix = "-unreadable/"

// Objects are the journals of a store without descriptors (SPEC H4): one
// object per append, "<dir><run>-<seq>", created only if absent, below
// the key prefix dir (ending in '/'). They are the backend's primitives
// for a bucket, on the Backend's four requests alone.
type Objects struct {
	b   backend.Backend
	dir string
	run string
	seq int
}

// NewObjects returns the journals under dir, this run's appends named
// after run.
func NewObjects(b backend.Backend, dir, run string) *Objects {
	return &Objects{b: b, dir: dir, run: run}
}

// Valid: a bucket journals any key with any tag.
func (o *Objects) Valid(Intent) bool { return true }

// Append writes body, after the header, as the run's next object,
// created only if absent (a lost answer that finds its own bytes there
// is success: backend.PutOwn).
func (o *Objects) Append(ctx context.Context, body []byte) (Unit, error) {
	o.seq++
	key := fmt.Sprintf("%s%s-%06d", o.dir, o.run, o.seq)
	data := append([]byte(Header+"\n"), body...)
	obj, err := backend.PutOwn(ctx, o.b, key, data, backend.Cond{IfAbsent: true})
	if err != nil {
		return Unit{}, fmt.Errorf("journal %s: %w", key, err)
	}
	return o.unit(obj), nil
}

// unit is the journal object obj.
func (o *Objects) unit(obj backend.Object) Unit {
	name := strings.TrimPrefix(obj.Key, o.dir)
	run, _, named := cutRun(name)
	u := Unit{Name: obj.Key, Run: run, Journal: o.dir, Tag: obj.Tag}
	if !named {
		u.Odd = 1
	}
	return u
}

// cutRun splits a journal object's name into its run and its sequence
// ("host.pid.ns-000001", "host.pid.ns-done"); named is false for a name
// not of that form.
func cutRun(name string) (run, seq string, named bool) {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return name, "", false
	}
	return name[:i], name[i+1:], true
}

// List lists the journal objects.
func (o *Objects) List(ctx context.Context) ([]Unit, error) {
	var units []Unit
	err := o.b.List(ctx, o.dir, func(obj backend.Object) error {
		units = append(units, o.unit(obj))
		return nil
	})
	return units, err
}

// Read reads up to maxObjectBytes of the object: a larger one is Cut,
// and counted one line not in the journal's form.
func (o *Objects) Read(ctx context.Context, u Unit) (io.ReadCloser, Unit, error) {
	data, obj, err := o.b.Get(ctx, u.Name, maxObjectBytes)
	if err != nil {
		return nil, u, fmt.Errorf("journal %s: %w", u.Name, err)
	}
	got := o.unit(obj)
	if int64(len(data)) > maxObjectBytes {
		got.Odd++
		got.Cut = true
		data = data[:maxObjectBytes]
	}
	return io.NopCloser(bytes.NewReader(data)), got, nil
}

// Unchanged lists, once per directory, the tags the journaled keys have
// now.
func (o *Objects) Unchanged(ctx context.Context, ins []Intent) ([]bool, error) {
	want := map[string]bool{}
	var dirs []string
	for _, in := range ins {
		want[in.Key] = true
		d := path.Dir(in.Key) + "/"
		if d == "./" {
			d = ""
		}
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	now := map[string]string{}
	for _, d := range dirs {
		err := o.b.List(ctx, d, func(obj backend.Object) error {
			if want[obj.Key] {
				now[obj.Key] = obj.Tag
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	same := make([]bool, len(ins))
	for i, in := range ins {
		tag, ok := now[in.Key]
		same[i] = ok && tag == in.Tag
	}
	return same, nil
}

// Aside is the unit's key below the prefix beside the journal's
// (AsideSuffix).
func (o *Objects) Aside(_ context.Context, u Unit) string {
	return strings.TrimSuffix(o.dir, "/") + AsideSuffix + strings.TrimPrefix(u.Name, o.dir)
}

// Remove deletes the object if it still carries the tag read.
func (o *Objects) Remove(ctx context.Context, u Unit) error {
	err := o.b.Delete(ctx, []backend.Object{{Key: u.Name, Tag: u.Tag}})[0]
	if err != nil && !errors.Is(err, backend.ErrNotExist) {
		return fmt.Errorf("remove journal %s: %w", u.Name, err)
	}
	return nil
}

// RemoveAll deletes the objects that still carry the tags read, in
// requests of the Backend's batch size (BatchRemover).
func (o *Objects) RemoveAll(ctx context.Context, us []Unit) error {
	objs := make([]backend.Object, len(us))
	for i, u := range us {
		objs[i] = backend.Object{Key: u.Name, Tag: u.Tag}
	}
	var errs []error
	for i, err := range o.b.Delete(ctx, objs) {
		if err != nil && !errors.Is(err, backend.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove journal %s: %w", us[i].Name, err))
		}
	}
	return errors.Join(errs...)
}

// SetAside copies the object to aside (or aside-2, … when that holds
// other bytes), created only if absent, then deletes the original on
// the tag that was read, so one rewritten since stays where it is.
func (o *Objects) SetAside(ctx context.Context, u Unit, aside string) error {
	data, cur, err := o.b.Get(ctx, u.Name, maxObjectBytes)
	if err == nil && cur.Tag != u.Tag {
		err = backend.ErrChanged
	}
	for n := 1; err == nil && n <= 10; n++ {
		key := aside
		if n > 1 {
			key = fmt.Sprintf("%s-%d", aside, n)
		}
		_, err = backend.PutOwn(ctx, o.b, key, data, backend.Cond{IfAbsent: true})
		if errors.Is(err, backend.ErrChanged) && n < 10 {
			err = nil // the name holds other bytes: the next one
			continue
		}
		break // written, or failed
	}
	if err == nil {
		err = o.Remove(ctx, u)
	}
	if err != nil {
		return fmt.Errorf("set aside journal %s: %w", u.Name, err)
	}
	return nil
}
