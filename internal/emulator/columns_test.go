package emulator

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// notFormFields are the columns of Website that no store or update sets,
// each with why; notUpdated those a store sets and an update does not.
var (
	notFormFields = map[string]string{
		"id":           "the database assigns it",
		"owner":        "the key's user",
		"favorite":     "set in the web interface only",
		"favorited_at": "set with favorite",
		"created_at":   "the database's timestamp",
		"updated_at":   "the database's timestamp",
	}
	notUpdated = map[string]string{"domain": "the update does not read it: a website keeps its domain"}
)

// Every column that a store or an update sets has the application's
// validation rules, in storeRules and in updateRules: a form field without
// them is refused (noRuleError), never stored unchecked.
func TestWebsiteColumns_haveRules(t *testing.T) {
	t.Parallel()
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := &input{query: newParams(), form: newParams(), body: newParams()}
	store := ruledInput(in, e.storeRules(in, func(string) bool { return false }, false), "storeRules")
	update := ruledInput(in, updateRules(in), "updateRules")
	seen := map[string]bool{}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Website]()) {
		column, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		seen[column] = true
		if _, ok := notFormFields[column]; ok {
			continue
		}
		for _, r := range []ruled{store, update} {
			if _, ok := notUpdated[column]; ok && r.rules == "updateRules" {
				continue
			}
			if !r.names[column] {
				t.Errorf("the column %s (emulator.Website.%s) has no rule in %s (internal/emulator/validate.go): add "+
					"the application's validation rules for the form field %s, or name the column in notFormFields "+
					"or notUpdated (internal/emulator/columns_test.go) with why", column, f.Name, r.rules, column)
			}
		}
	}
	for column := range notFormFields {
		if !seen[column] {
			t.Errorf("notFormFields names %s, which is no column of emulator.Website: remove it", column)
		}
	}
}

// A store or update that reads a field without a rule is the emulator's
// bug, answered with a 500 that names the field and where its rules go.
func TestRuledInput_refusesAFieldWithoutRule(t *testing.T) {
	t.Parallel()
	in := &input{query: newParams(), form: newParams(), body: newParams()}
	in.body.set("label", "x")
	in.body.set("domain", "a.example")
	r := ruledInput(in, []fieldSpec{{name: "domain"}}, "storeRules")
	if !r.has("domain") || r.get("domain") != "a.example" {
		t.Error("a field with rules is not read")
	}
	defer func() {
		err, ok := recover().(noRuleError)
		if !ok || !strings.Contains(err.Error(), `"label"`) || !strings.Contains(err.Error(), "storeRules (internal/emulator/validate.go)") {
			t.Errorf("reading a field without rules: %v", err)
		}
	}()
	r.get("label")
	t.Error("reading a field without rules did not panic")
}

// clone copies every pointer, slice and map of a Website, so that a stored
// website shares nothing with what a handler or a test holds (a column added
// as one of those needs its line in clone, internal/emulator/emulator.go).
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
		case reflect.Map:
			v.Field(i).Set(reflect.MakeMap(f.Type))
		}
	}
	c := w.clone()
	cv := reflect.ValueOf(&c).Elem()
	for i, f := range reflect.VisibleFields(v.Type()) {
		if hint := cloneHint(f); hint != "" && cv.Field(i).Pointer() == v.Field(i).Pointer() {
			t.Errorf("Website.clone shares %s with the original: copy it in clone (internal/emulator/emulator.go), as %s",
				f.Name, hint)
		}
	}
}

// cloneHint is the line of clone that copies the field f of a Website: ""
// for a field that a copy of the struct copies whole.
func cloneHint(f reflect.StructField) string {
	switch f.Type.Kind() {
	case reflect.Pointer:
		return fmt.Sprintf("w.%[1]s = clonePtr(w.%[1]s)", f.Name)
	case reflect.Slice:
		return fmt.Sprintf("w.%[1]s = slices.Clone(w.%[1]s) (nil stays nil)", f.Name)
	case reflect.Map:
		return fmt.Sprintf("w.%[1]s = maps.Clone(w.%[1]s) (nil stays nil)", f.Name)
	}
	return ""
}

// The line cloneHint proposes is one that compiles and copies, for a
// column of each kind.
func TestCloneHint(t *testing.T) {
	t.Parallel()
	type columns struct {
		Flag *bool
		Tags []string
		Meta map[string]string
		Name string
	}
	want := map[string]string{
		"Flag": "w.Flag = clonePtr(w.Flag)",
		"Tags": "w.Tags = slices.Clone(w.Tags) (nil stays nil)",
		"Meta": "w.Meta = maps.Clone(w.Meta) (nil stays nil)",
		"Name": "",
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[columns]()) {
		if got := cloneHint(f); got != want[f.Name] {
			t.Errorf("%s: hint %q, want %q", f.Name, got, want[f.Name])
		}
	}
	// The hints, written out: they compile, and the copy shares nothing.
	w := columns{Flag: new(true), Tags: []string{"a"}, Meta: map[string]string{"k": "v"}}
	c := w
	c.Flag = clonePtr(w.Flag)
	c.Tags = slices.Clone(w.Tags)
	c.Meta = maps.Clone(w.Meta)
	*c.Flag, c.Tags[0], c.Meta["k"] = false, "b", "w"
	if !*w.Flag || w.Tags[0] != "a" || w.Meta["k"] != "v" {
		t.Errorf("the hinted lines share the original's values: %+v", w)
	}
}
