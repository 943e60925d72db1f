package client

import (
	"reflect"
	"testing"
)

// clone copies every pointer and slice of a Website, so that no caller
// shares the cached record's.
func TestWebsite_cloneSharesNothing(t *testing.T) {
	t.Parallel()
	var w Website
	v := reflect.ValueOf(&w).Elem()
	for i, f := range reflect.VisibleFields(v.Type()) {
		switch f.Type.Kind() {
		case reflect.Pointer:
			v.Field(i).Set(reflect.New(f.Type.Elem()))
		case reflect.Slice:
			v.Field(i).Set(reflect.MakeSlice(f.Type, 1, 1))
		}
	}
	c := reflect.ValueOf(w.clone()).Elem()
	for i, f := range reflect.VisibleFields(v.Type()) {
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice:
			if c.Field(i).Pointer() == v.Field(i).Pointer() {
				t.Errorf("Website.clone shares %s with the original", f.Name)
			}
		}
	}
}
