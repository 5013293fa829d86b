//go:build linux

package gc

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/skill"
)

// memObjects is an in-memory bucket for the deletion pipeline's tests:
// conditional like the real one (tags are a counter), with a hook run at
// the start of every Delete call, and a log of what each Delete found
// journaled when it started.
type memObjects struct {
	mu       sync.Mutex
	objs     map[string][]byte
	tags     map[string]string
	next     int
	journals [][]byte // every journal object written, in order
	onDelete func(call int, objs []backend.Object)
	deletes  int
	failures []string
}

func newMemObjects(keys ...string) *memObjects {
	m := &memObjects{objs: map[string][]byte{}, tags: map[string]string{}}
	for _, k := range keys {
		m.store(k, []byte("old "+k))
	}
	return m
}

func (m *memObjects) store(key string, data []byte) backend.Object {
	m.next++
	m.objs[key], m.tags[key] = data, strconv.Itoa(m.next)
	return backend.Object{Key: key, Size: int64(len(data)), Tag: m.tags[key]}
}

func (m *memObjects) List(_ context.Context, prefix string, fn func(backend.Object) error) error {
	m.mu.Lock()
	var keys []string
	for k := range m.objs {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	objs := make([]backend.Object, len(keys))
	for i, k := range keys {
		objs[i] = backend.Object{Key: k, Size: int64(len(m.objs[k])), ModTimeNs: now.UnixNano(), Tag: m.tags[k]}
	}
	m.mu.Unlock()
	for _, o := range objs {
		if err := fn(o); err != nil {
			return err
		}
	}
	return nil
}

func (m *memObjects) Get(_ context.Context, key string, limit int64) ([]byte, backend.Object, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.objs[key]
	if !ok {
		return nil, backend.Object{}, backend.ErrNotExist
	}
	return data[:min(int64(len(data)), limit+1)], backend.Object{Key: key, Size: int64(len(data)), ModTimeNs: now.UnixNano(), Tag: m.tags[key]}, nil
}

func (m *memObjects) Put(_ context.Context, key string, data []byte, c backend.Cond) (backend.Object, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	tag, ok := m.tags[key]
	if c.IfAbsent && ok || c.IfMatch != "" && c.IfMatch != tag || !c.IfAbsent && c.IfMatch == "" {
		return backend.Object{}, backend.ErrChanged
	}
	if strings.HasPrefix(key, JournalDir) {
		m.journals = append(m.journals, slices.Clone(data))
	}
	return m.store(key, slices.Clone(data)), nil
}

// Delete records whether every key it was given had been journaled
// before the call, runs the hook, then deletes conditionally.
func (m *memObjects) Delete(_ context.Context, objs []backend.Object) []error {
	m.mu.Lock()
	m.deletes++
	call := m.deletes
	for _, o := range objs {
		if !strings.HasPrefix(o.Key, ".river/tmp/") {
			continue // the run's own objects (lock, journal) are not journaled
		}
		named := slices.ContainsFunc(m.journals, func(j []byte) bool { return bytes.Contains(j, []byte(strconv.Quote(o.Key))) })
		if !named {
			m.failures = append(m.failures, fmt.Sprintf("delete call %d: %s not journaled before its delete", call, o.Key))
		}
	}
	hook := m.onDelete
	m.mu.Unlock()
	if hook != nil {
		hook(call, objs)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	errs := make([]error, len(objs))
	for i, o := range objs {
		switch tag, ok := m.tags[o.Key]; {
		case !ok:
			errs[i] = backend.ErrNotExist
		case tag != o.Tag:
			errs[i] = backend.ErrChanged
		default:
			delete(m.objs, o.Key)
			delete(m.tags, o.Key)
		}
	}
	return errs
}

func (m *memObjects) Versioned(context.Context) (bool, error) { return false, nil }
func (m *memObjects) Requests() map[string]int                { return map[string]int{} }

// TestBucketJournalOverlapsTheBatchBefore: the next journal batch is
// written (and the lock renewed) while the previous batch's deletes are
// still in flight, never before its own deletes are journaled; every key
// is named by a journal before its delete is sent, the results keep key
// order, and the run ends with its journal and lock gone.
func TestBucketJournalOverlapsTheBatchBefore(t *testing.T) {
	defer func(n int) { objectJournalBatch = n }(objectJournalBatch)
	objectJournalBatch = 3
	var keys []string
	for i := range 8 {
		keys = append(keys, fmt.Sprintf(".river/tmp/f%d", i))
	}
	m := newMemObjects(keys...)
	overlapped := map[string]bool{}
	m.onDelete = func(_ int, objs []backend.Object) {
		i := slices.Index(keys, objs[0].Key)
		if i < 0 || i+objectJournalBatch >= len(keys) {
			return // the lock's and journal's own deletes; the last batch has no successor
		}
		// Hold this batch in flight until the next batch's journal is
		// written: without the overlap that never happens (bounded).
		next := []byte(strconv.Quote(keys[i+objectJournalBatch]))
		for range 600 {
			m.mu.Lock()
			written := slices.ContainsFunc(m.journals, func(j []byte) bool { return bytes.Contains(j, next) })
			m.mu.Unlock()
			if written {
				m.mu.Lock()
				overlapped[objs[0].Key] = true
				m.mu.Unlock()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Errorf("batch from %s: the next batch's journal was not written while it was in flight", objs[0].Key)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".river"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := config(t, dir, true)
	cfg.Root = OpenObjects("s3://mem/p", m)
	cfg.Scopes = []skill.Scope{skill.ScopeTmp}
	cfg.Now += 10 * 365 * 86400
	var progress []int
	cfg.Progress = func(done, total int) { progress = append(progress, done, total) }
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.failures {
		t.Error(f)
	}
	if got := removedPaths(out); !slices.Equal(got, keys) {
		t.Errorf("removed %q, want %q", got, keys)
	}
	if len(out.Errors) != 0 {
		t.Errorf("errors %v", out.Errors)
	}
	if want := map[string]bool{keys[0]: true, keys[3]: true}; !maps.Equal(overlapped, want) {
		t.Errorf("batches in flight while the next was journaled: %v, want %v", overlapped, want)
	}
	if want := []int{3, 8, 6, 8, 8, 8}; !slices.Equal(progress, want) {
		t.Errorf("progress %v, want %v", progress, want)
	}
	var left []string
	m.List(context.Background(), "", func(o backend.Object) error { left = append(left, o.Key); return nil })
	if !slices.Equal(left, []string{RootMarker}) {
		t.Errorf("left %q, want only the root marker", left)
	}
}
