package acctest

import (
	"reflect"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// FullWebsite fills every column of emulator.Website but those
// NotSeededColumns names, so that the tests that seed it see a column
// added later.
func TestFullWebsite_everyColumn(t *testing.T) {
	t.Parallel()
	for _, name := range UnsetColumns(FullWebsite("full.example.com")) {
		t.Errorf("FullWebsite (internal/acctest/full_website.go) leaves emulator.Website.%s unset: give it a value "+
			"the application accepts, so that the guides' and the list resource's tests see it", name)
	}
	fields := map[string]bool{}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[emulator.Website]()) {
		fields[f.Name] = true
	}
	for name := range NotSeededColumns {
		if !fields[name] {
			t.Errorf("NotSeededColumns names %s, which is no field of emulator.Website: remove it", name)
		}
	}
}
