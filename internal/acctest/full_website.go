package acctest

import (
	"reflect"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// FullWebsite is a website of domain, as the web interface makes it, with a
// value the application accepts in every column the API sets or returns
// (none NULL), for the tests that must see every field: the guides' seeded
// accounts (internal/repotest) and the list resource's results. A column
// added to emulator.Website needs its value here: TestFullWebsite_everyColumn
// fails until it has one.
func FullWebsite(domain string) emulator.Website {
	return emulator.Website{
		Domain:        domain,
		Privacy:       ptr(2),
		Email:         ptr(1),
		ExcludeBots:   ptr(0),
		Password:      "from-the-ui",
		ExcludeParams: "utm_source\nfbclid",
		ExcludeIPs:    "10.0.0.1\r\n10.0.0.0/8\r\n",
		Favorite:      true,
	}
}

// NotSeededColumns are the fields of emulator.Website that a seed leaves
// zero, each with why; every other field is a column the API sets or
// returns, which FullWebsite and the guides' seeds fill.
var NotSeededColumns = map[string]string{
	"ID":          "the emulator assigns it",
	"Owner":       "Seed's owner argument",
	"FavoritedAt": "Seed sets it for a favorite",
	"CreatedAt":   "Seed sets it",
	"UpdatedAt":   "Seed sets it",
}

// UnsetColumns are the fields of w, other than NotSeededColumns, that hold
// their zero value (NULL in the database).
func UnsetColumns(w emulator.Website) []string {
	var out []string
	v := reflect.ValueOf(w)
	for i, f := range reflect.VisibleFields(v.Type()) {
		if _, skip := NotSeededColumns[f.Name]; !skip && v.Field(i).IsZero() {
			out = append(out, f.Name)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }
