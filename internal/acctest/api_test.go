package acctest

import (
	"context"
	"reflect"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// InputOf is the update that leaves a website as it is: a website with a
// value in every column, or with NULL in every one, read back and updated
// with InputOf of its record loses nothing (a list re-sent one entry per
// line is no loss, LostColumns).
func TestInputOf_roundTrips(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{})
	env := &Env{URL: srv.URL, Key: emulator.DefaultAPIKey}
	for _, seeded := range []emulator.Website{FullWebsite("full.example.com"), {Domain: "null.example.com"}} {
		was := srv.Seed(emulator.DefaultAPIKey, seeded)
		w, err := env.API(env.Key).GetWebsite(context.Background(), was.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.API(env.Key).UpdateWebsite(context.Background(), w.ID, InputOf(*w)); err != nil {
			t.Fatal(err)
		}
		now, _ := srv.Website(was.ID)
		var ignored []string
		for _, c := range wire.Columns {
			// A NULL integer is sent as what the application reads it as.
			if f := was.Get(c.Name); c.Kind == wire.Integer && f.IsNil() {
				if n := now.Get(c.Name); !n.IsNil() && n.Elem().Int() == int64(c.Null) {
					ignored = append(ignored, reflect.TypeFor[wire.Settings]().FieldByIndex(settingsIndex(c.Name)).Name)
				}
			}
		}
		if lost := LostColumns(was, now, append(ignored, "UpdatedAt")...); len(lost) != 0 {
			t.Errorf("%s: an update with InputOf of its record changed %v", was.Domain, lost)
		}
	}
}

func settingsIndex(name string) []int {
	return wire.Fields(reflect.TypeFor[wire.Settings](), "json")[name]
}
