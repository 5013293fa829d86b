//go:build linux

package sweep

import (
	"reflect"
	"slices"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// filled is a Report with every field set, built by reflection so that a
// field added to Report later is filled too (and Add must handle it).
func filled(t *testing.T, path string, n int) Report {
	t.Helper()
	var r Report
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Interface().(type) {
		case []string:
			f.Set(reflect.ValueOf([]string{path}))
		case []*fserr.Error:
			f.Set(reflect.ValueOf([]*fserr.Error{fserr.New(fserr.OpDelete, path, fserr.ErrChanged)}))
		case int:
			f.SetInt(int64(n))
		default:
			if f.Type() == reflect.TypeFor[error]() {
				f.Set(reflect.ValueOf(fserr.New(fserr.OpJournal, path, fserr.ErrChanged)))
				continue
			}
			t.Fatalf("Report.%s has a type this test (and maybe Add) does not know: %s", v.Type().Field(i).Name, f.Type())
		}
	}
	return r
}

// TestReportAddEveryField: Add merges every field of Report (a
// forgotten field was a bug once), keeping lists sorted whatever order
// the reports come in.
func TestReportAddEveryField(t *testing.T) {
	var got Report
	got.Add(filled(t, "b", 2))
	got.Add(filled(t, "a", 3))
	v := reflect.ValueOf(got)
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if v.Field(i).Type() == reflect.TypeFor[error]() {
			if fe, ok := v.Field(i).Interface().(*fserr.Error); !ok || fe.Path != "b" {
				t.Errorf("%s = %v, want the first report's (b's)", name, v.Field(i).Interface())
			}
			continue
		}
		switch f := v.Field(i).Interface().(type) {
		case []string:
			if !slices.Equal(f, []string{"a", "b"}) {
				t.Errorf("%s = %q, want [a b]", name, f)
			}
		case []*fserr.Error:
			if len(f) != 2 || f[0].Path != "a" || f[1].Path != "b" {
				t.Errorf("%s = %v, want the errors of a and b in path order", name, f)
			}
		case int:
			if f != 5 {
				t.Errorf("%s = %d, want 5", name, f)
			}
		}
	}
	var empty Report
	empty.Add(Report{})
	if !reflect.DeepEqual(empty, Report{}) {
		t.Errorf("adding nothing to nothing gave %+v", empty)
	}
}
