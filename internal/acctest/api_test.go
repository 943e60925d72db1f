package acctest

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// InputOf is the update that leaves a website as it is: every field of
// client.WebsiteInput that the API returns comes back from the record, after
// a store and after an update, so that Change never erases a value,
// including one of a field added later (each field is filled in here by its
// kind, not by name).
// notReturnedInputs are the fields of client.WebsiteInput that the API
// never returns, each with why, each one InputOf leaves out (a nil pointer,
// or its Omit switch set); every other field, a pointer (sent when non-nil)
// included, must come back from the record.
var notReturnedInputs = map[string]string{
	"Password":      "the API returns only whether one is set; InputOf leaves it out",
	"ExcludeParams": "the API never returns it; InputOf leaves it out (OmitExcludeParams)",
}

func TestInputOf_roundTrips(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{})
	env := &Env{URL: srv.URL, Key: emulator.DefaultAPIKey}

	// sample is an input with every field set by its kind, the
	// variant-th value of each.
	sample := func(variant int) client.WebsiteInput {
		var in client.WebsiteInput
		v := reflect.ValueOf(&in).Elem()
		for i, f := range reflect.VisibleFields(v.Type()) {
			if _, ok := notReturnedInputs[f.Name]; ok {
				continue // InputOf leaves it out
			}
			switch field := v.Field(i); f.Type.Kind() {
			case reflect.String:
				field.SetString([]string{"sample", "changed"}[variant])
			case reflect.Int:
				field.SetInt(int64(1 + variant))
			case reflect.Bool:
				field.SetBool(variant == 0)
			case reflect.Slice:
				field.Set(reflect.ValueOf([]string{[]string{"192.0.2.1", "198.51.100.0/24"}[variant]}))
			case reflect.Pointer:
				// Sent when non-nil: a value of the field's kind.
				p := reflect.New(f.Type.Elem())
				switch f.Type.Elem().Kind() {
				case reflect.String:
					p.Elem().SetString([]string{"sample", "changed"}[variant])
				case reflect.Int:
					p.Elem().SetInt(int64(1 + variant))
				case reflect.Bool:
					p.Elem().SetBool(variant == 0)
				case reflect.Slice:
					p.Elem().Set(reflect.ValueOf([]string{[]string{"192.0.2.1", "198.51.100.0/24"}[variant]}))
				default:
					t.Fatalf("WebsiteInput.%s: no sample of kind %s: add one to TestInputOf_roundTrips "+
						"(internal/acctest/api_test.go)", f.Name, f.Type)
				}
				field.Set(p)
			default:
				t.Fatalf("WebsiteInput.%s: no sample of kind %s: add one to TestInputOf_roundTrips "+
					"(internal/acctest/api_test.go)", f.Name, f.Type.Kind())
			}
		}
		in.Domain = "input-of.example.com"
		in.OmitExcludeParams = true // as InputOf sets it
		return in
	}
	check := func(what string, id int64, want client.WebsiteInput) {
		t.Helper()
		w, err := env.API(env.Key).GetWebsite(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		got := InputOf(*w)
		got.Domain = want.Domain // an update does not send it
		if reflect.DeepEqual(got, want) {
			return
		}
		gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
		for i, f := range reflect.VisibleFields(gv.Type()) {
			if !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
				t.Errorf("after %s, InputOf(the stored website).%s = %#v, want %#v: the client must send it "+
					"(its form tag in WebsiteInput, internal/client/website.go), the emulator store it on %[1]s "+
					"(internal/emulator/websites.go: %[5]s) and return it (record), and the client decode it "+
					"(internal/client/website.go: Website, wireWebsite, UnmarshalJSON) into a field or a %[2]sValue "+
					"method of client.Website named as WebsiteInput's (InputOf copies by name); or, for a field the API "+
					"never returns (as the password), name it in notReturnedInputs (internal/acctest/api_test.go) with "+
					"why: InputOf leaves it out, so it must be a pointer, nil not sent",
					what, f.Name, shownInput(gv.Field(i)), shownInput(wv.Field(i)), map[string]string{"store": "newWebsite", "update": "applyUpdate"}[what])
			}
		}
	}
	in := sample(0)
	res, err := env.API(env.Key).CreateWebsite(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	check("store", res.Website.ID, in)

	up := sample(1)
	if _, err := env.API(env.Key).UpdateWebsite(context.Background(), res.Website.ID, up); err != nil {
		t.Fatal(err)
	}
	check("update", res.Website.ID, up)
	// A field the API never returns is left out of InputOf's request (and of
	// the provider's while the configuration does not manage it): a pointer,
	// nil not sent, or a field with its Omit switch, as ExcludeParams. A
	// value is always sent, and its zero value clears what the server holds.
	of := reflect.ValueOf(InputOf(client.Website{ID: 1, Domain: "input-of.example.com"}))
	for name := range notReturnedInputs {
		f := of.FieldByName(name)
		omit := of.FieldByName("Omit" + name)
		leftOut := f.IsValid() && f.Kind() == reflect.Pointer && f.IsNil() ||
			omit.IsValid() && omit.Kind() == reflect.Bool && omit.Bool()
		_, returnedField := reflect.TypeFor[client.Website]().FieldByName(name)
		_, returnedMethod := reflect.TypeFor[client.Website]().MethodByName(name + "Value")
		switch {
		case !f.IsValid():
			t.Errorf("notReturnedInputs names %s, which is no field of client.WebsiteInput: remove it", name)
		case returnedField || returnedMethod:
			// InputOf copies it back from the record by this name: the API
			// returns it, and naming it here would hide a read that is missing.
			t.Errorf("notReturnedInputs names %s, but client.Website has it (a field or a %sValue method): the API "+
				"returns it. Decode it from the record (internal/client/website.go: wireWebsite, UnmarshalJSON) and "+
				"remove it from notReturnedInputs (internal/acctest/api_test.go)", name, name)
		case !leftOut:
			t.Errorf("client.WebsiteInput.%s: the API never returns it (notReturnedInputs), but it is a %s, always sent: "+
				"an update that does not manage it would overwrite what the server holds (%s, sent, clears it). Make it a "+
				"pointer in client.WebsiteInput (internal/client/website.go), nil not sent, and leave it nil in the "+
				"provider's send while the configuration does not set it (CONTRIBUTING.md, \"Adding an attribute\")",
				name, f.Type(), fmt.Sprintf("%#v", f.Interface()))
		}
	}
}

// shownInput is a field's value as a message shows it: a pointer by what it
// points to.
func shownInput(v reflect.Value) any {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "nil (not sent)"
		}
		return fmt.Sprintf("&%#v", v.Elem().Interface())
	}
	return v.Interface()
}

// A pointer field of the input (sent when non-nil) takes a value field of
// the record, as CONTRIBUTING.md's recipe has a new attribute (client.Website's
// Label string, client.WebsiteInput's Label *string): a pointer to the value;
// nil for an empty string alone (NULL: the server never stores ""), since
// false and 0 are values a boolean or an integer stored as a value holds
// (the recipe's Website: a value when NULL and the zero value mean the
// same), which the round trip sends and must get back.
func TestCopyByName_valueIntoPointer(t *testing.T) {
	t.Parallel()
	type record struct {
		Label, Note string
		Count, None int
		Flag        bool
		Tags        []string
	}
	type input struct {
		Label, Note *string
		Count, None *int
		Flag        *bool
		Tags        *[]string
	}
	var in input
	copyByName(reflect.ValueOf(&in).Elem(), reflect.ValueOf(record{Label: "x", Count: 3, Tags: []string{"a"}}))
	if in.Label == nil || *in.Label != "x" || in.Count == nil || *in.Count != 3 || in.Note != nil {
		t.Errorf("copyByName(record{Label: \"x\", Count: 3}) = Label %s, Count %s, Note %s; want \"x\", 3, NULL",
			shownInput(reflect.ValueOf(in.Label)), shownInput(reflect.ValueOf(in.Count)), shownInput(reflect.ValueOf(in.Note)))
	}
	if in.Tags == nil || len(*in.Tags) != 1 || (*in.Tags)[0] != "a" {
		t.Errorf("copyByName(record{Tags: [a]}) = Tags %s; want &[a] (a set left out while unknown)", shownInput(reflect.ValueOf(in.Tags)))
	}
	if in.Flag == nil || *in.Flag || in.None == nil || *in.None != 0 {
		t.Errorf("copyByName(record{Flag: false, None: 0}) = Flag %s, None %s; want &false, &0: a boolean or an "+
			"integer stored as a value holds false or 0, not NULL", shownInput(reflect.ValueOf(in.Flag)), shownInput(reflect.ValueOf(in.None)))
	}
}
