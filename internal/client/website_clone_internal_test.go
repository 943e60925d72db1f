package client

import (
	"fmt"
	"reflect"
	"testing"
)

// clone copies every pointer and slice of a Website, so that no caller
// shares the cached record's (a field added to Website as a pointer needs
// its line in clone, internal/client/website.go).
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
				how := "c.%[1]s = clonePtr(w.%[1]s)"
				if f.Type.Kind() == reflect.Slice {
					how = "c.%[1]s = slices.Clone(w.%[1]s) (nil stays nil)" // clonePtr takes a pointer
				}
				t.Errorf("Website.clone shares %s with the original: copy it in clone (internal/client/website.go), as "+
					fmt.Sprintf(how, f.Name), f.Name)
			}
		}
	}
}
