package acctest

import (
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// FullWebsite is a website of domain, as the web interface makes it, with a
// value the application accepts in every column the API sets or returns
// (none NULL: each column's sample, wire.Columns), for the tests that must
// see every field: the guides' seeded accounts (internal/repotest) and the
// list resource's results.
func FullWebsite(domain string) emulator.Website {
	return emulator.Website{Domain: domain, Settings: wire.Sample(), Favorite: true}
}

func ptr[T any](v T) *T { return &v }
