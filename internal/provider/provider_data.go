package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// providerData is what resources and data sources receive from Configure:
// what one provider instance (one Terraform command) shares.
type providerData struct {
	client *client.Client
	// trackingCode is the installation's tracking code (tracking_code.go).
	trackingCode string
	// websites serves the reads of websites by id, from a list sweep when
	// Terraform refreshes many at once; mutations must Forget the website.
	websites *client.BulkReader
	// guard decides whether a website whose owner is unknown may leave the
	// state (see owner.go).
	guard *vanishGuard
	// statistics is the budget of the plan-time statistics checks of the
	// websites a plan destroys (see website_destroy.go).
	statistics *statisticsBudget
	// logNoAccount logs once that the server has no GET /account.
	logNoAccount sync.Once

	// The website limit check at plan time (see websiteLimit).
	countOnce sync.Once
	count     int   // websites the key's user has, -1 when unknown
	countErr  error // why count is unknown
	creates   int64 // websites this run plans to create (atomic)
}

func newProviderData(c *client.Client) *providerData {
	return &providerData{
		client:   c,
		websites: client.NewBulkReader(c, client.BulkReaderOptions{}),
		guard:    newVanishGuard(0),

		statistics: newStatisticsBudget(),
	}
}

// providerDataFrom is the Configure of resources and data sources.
func providerDataFrom(raw any, diags *diag.Diagnostics) *providerData {
	if raw == nil {
		return nil
	}
	data, ok := raw.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", raw))
	}
	return data
}

// dataClient returns the API client of a resource or data source, or adds an
// error when the provider could not be configured (its configuration was
// unknown at plan time).
func dataClient(data *providerData, diags *diag.Diagnostics) *client.Client {
	if data == nil {
		diags.AddError("Provider Not Configured",
			"The analytics provider's base_url or api_key is not known yet, so the API cannot be reached. "+
				"If they come from other resources, apply those first (e.g. with -target).")
		return nil
	}
	return data.client
}

// websiteLimit counts one more website planned for creation and reports the
// plan's limit, the websites the user has and the planned creates so far.
// ok is false when the server states no limit (or an unlimited one) or the
// count could not be read; the check is then skipped. err is why it could
// not be read (nil on builds without GET /account).
func (d *providerData) websiteLimit(ctx context.Context) (limit, have, planned int, ok bool, err error) {
	a, err := d.client.Account(ctx)
	if errors.Is(err, client.ErrAccountUnsupported) {
		return 0, 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, 0, false, err
	}
	if !a.HasWebsiteLimit || a.WebsiteLimit < 0 {
		return 0, 0, 0, false, nil
	}
	d.countOnce.Do(func() {
		d.count = -1
		p, lerr := d.client.ListWebsites(ctx, client.ListOptions{PerPage: client.PerPageValues[0]})
		if lerr == nil {
			d.count = p.Total
		}
		d.countErr = lerr
	})
	if d.count < 0 {
		return 0, 0, 0, false, d.countErr
	}
	return a.WebsiteLimit, d.count, int(atomic.AddInt64(&d.creates, 1)), true, nil
}
