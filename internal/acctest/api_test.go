package acctest

import (
	"context"
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
				// Password: the API never returns it; InputOf leaves it out.
			default:
				t.Fatalf("WebsiteInput.%s: no sample of kind %s: add one to TestInputOf_roundTrips "+
					"(internal/acctest/api_test.go)", f.Name, f.Type.Kind())
			}
		}
		in.Domain = "input-of.example.com"
		in.ExcludeParams, in.OmitExcludeParams = nil, true // the API never returns it
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
					"method of client.Website named as WebsiteInput's (InputOf copies by name)",
					what, f.Name, gv.Field(i).Interface(), wv.Field(i).Interface(), map[string]string{"store": "newWebsite", "update": "applyUpdate"}[what])
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
}
