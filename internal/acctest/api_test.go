package acctest

import (
	"context"
	"reflect"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// InputOf is the update that leaves a website as it is: every field of
// client.WebsiteInput that the API returns comes back from the record, so
// that Change never erases a value, including one of a field added later
// (each field is filled in here by its kind, not by name).
func TestInputOf_roundTrips(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{})
	env := &Env{URL: srv.URL, Key: emulator.DefaultAPIKey}

	var in client.WebsiteInput
	v := reflect.ValueOf(&in).Elem()
	for i, f := range reflect.VisibleFields(v.Type()) {
		switch field := v.Field(i); f.Type.Kind() {
		case reflect.String:
			field.SetString("sample")
		case reflect.Int:
			field.SetInt(1)
		case reflect.Bool:
			field.SetBool(true)
		case reflect.Slice:
			field.Set(reflect.ValueOf([]string{"192.0.2.1"}))
		case reflect.Pointer:
			// Password: the API never returns it; InputOf leaves it out.
		default:
			t.Fatalf("WebsiteInput.%s: no sample of kind %s", f.Name, f.Type.Kind())
		}
	}
	in.Domain = "input-of.example.com"
	in.ExcludeParams, in.OmitExcludeParams = nil, true // the API never returns it
	res, err := env.API(env.Key).CreateWebsite(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	w, err := env.API(env.Key).GetWebsite(context.Background(), res.Website.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := InputOf(*w)
	got.Domain = in.Domain // an update does not send it
	if !reflect.DeepEqual(got, in) {
		t.Errorf("InputOf(the stored website) = %+v, want what was stored, %+v", got, in)
	}
}
