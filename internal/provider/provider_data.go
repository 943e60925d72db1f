package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// providerData is what resources and data sources receive from Configure:
// what one provider instance (one Terraform command) shares.
type providerData struct {
	client *client.Client
	// trackingCode is the installation's tracking code (resolveTrackingCode).
	trackingCode string
	// websites serves the reads of websites by id, from a list sweep when
	// Terraform refreshes many at once; mutations must Forget the website.
	websites *client.BulkReader
	// guard decides whether a website whose owner is unknown may leave the
	// state (see owner.go).
	guard *missingWebsiteGuard
	// statistics is the budget of the plan-time statistics checks of the
	// websites a plan destroys (see website_destroy.go).
	statistics *statisticsBudget
	// exports are the websites whose statistics export failed in this run
	// (see website_statistics_export_action.go).
	exports exportFailures
	// kept are the websites skip_destroy kept in this run (website_kept.go).
	kept keptWebsites
	// keptPlans pair, in a plan, the removals of kept websites with the
	// creates of their domains (website_kept_plan.go).
	keptPlans keptPlans
	// created are the domains of the websites this run's plans create
	// (website_new_domains.go).
	created newDomains
	// ipsConfigured are the exclude_ips of the configurations validated in
	// this run (website_ips_ignored.go).
	ipsConfigured configuredIPs
	// logNoAccount logs once that the server has no GET /account.
	logNoAccount sync.Once

	// The account as the plan-time checks see it (checksAccount).
	accountOnce sync.Once
	account     *client.Account
	accountErr  error

	// The website limit check at plan time (see website_limit.go).
	countOnce sync.Once
	count     int                // websites the key's user has, -1 when unknown
	domains   map[string][]int64 // their ids by domain, when the count's page held them all (findDomain)
	countErr  error              // why count is unknown
	tally     planCounter        // the creates, replacements and deletes planned (website_limit.go)
	// deletes is the number of websites this provider instance deleted
	// (atomic), and deletesAtCount their number when count was asked: an
	// apply plans each create again after the deletes before it.
	deletes        int64
	deletesAtCount int64

	// The held-domain check of the creates a plan holds (heldDomains):
	// the user's websites by domain when the limit check's page held them
	// all, the first lookup that failed, and the ids this instance deleted
	// since (websiteDeleted).
	heldOnce   sync.Once
	held       map[string][]int64
	heldMu     sync.Mutex
	heldErr    error     // guarded by heldMu (heldFailed)
	heldWarned sync.Once // the warning that heldErr left the domains unchecked
	deletedMu  sync.Mutex
	deletedIDs map[int64]bool
}

func newProviderData(c *client.Client) *providerData {
	return &providerData{
		client:   c,
		websites: client.NewBulkReader(c, client.BulkReaderOptions{}),
		guard:    newMissingWebsiteGuard(0),

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

// websitesHeld reports the plan's website limit and the websites the user
// held when the run first asked (one GET /account and one list request per
// provider instance, shared by every check), less those this instance
// deleted since (an apply). ok is false when the server states no limit
// (or an unlimited one) or the count could not be read; the check is then
// skipped. err is why it could not be read (nil on builds without GET
// /account).
func (d *providerData) websitesHeld(ctx context.Context) (limit, have int, ok bool, err error) {
	a, err := d.checksAccount(ctx)
	if errors.Is(err, client.ErrAccountUnsupported) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, err
	}
	limit, ok = a.WebsiteLimit()
	if !ok {
		return 0, 0, false, nil
	}
	d.countOnce.Do(func() {
		d.deletesAtCount = atomic.LoadInt64(&d.deletes)
		d.count, d.domains, d.countErr = d.websitesCount(ctx)
	})
	if d.count < 0 {
		return 0, 0, false, d.countErr
	}
	// A delete that ends while the count is asked may be subtracted though
	// the count saw it: a warning missed rather than one too many.
	return limit, max(d.count-int(atomic.LoadInt64(&d.deletes)-d.deletesAtCount), 0), true, nil
}

// websiteDeleted records that this provider instance deleted the website
// id (see websitesHeld and heldDomains).
func (d *providerData) websiteDeleted(id int64) {
	atomic.AddInt64(&d.deletes, 1)
	d.deletedMu.Lock()
	defer d.deletedMu.Unlock()
	if d.deletedIDs == nil {
		d.deletedIDs = map[int64]bool{}
	}
	d.deletedIDs[id] = true
}

// heldDomains returns the ids of the user's websites with domain (in its
// canonical form), by id. The limit check's page answers when it held
// every website (no request more); else the bulk reader does, as for the
// imports (FindHolders): the first lookup of a burst reads the list's
// first page, which is the whole list for up to 100 websites and tells
// what a sweep costs; a domain is then searched for (the list's search,
// every page of its answer) while what the searches would cost is less
// than the pages left to read, and the rest of the list is swept once it
// is more, which answers every lookup after it. The search is a substring
// match: an apex domain's answers every subdomain, and page 1 tells how
// many. So one create costs a request or two, or about the list's pages
// when its domain's search is that long, and many creates the list's
// pages. Websites this instance deleted since are left out. A lookup that
// fails is not tried again by this provider instance: the checks of the
// other creates would fail the same way, each after its retries.
func (d *providerData) heldDomains(ctx context.Context, domain string) ([]int64, error) {
	d.heldOnce.Do(func() {
		// An account that cannot be read (a plan without API access: 403)
		// would refuse the list too; the limit check says why.
		if _, err := d.checksAccount(ctx); err != nil && !errors.Is(err, client.ErrAccountUnsupported) {
			_ = d.heldFailed(err)
			return
		}
		if _, _, ok, err := d.websitesHeld(ctx); err == nil && ok && d.domains != nil {
			d.held = map[string][]int64{}
			for dom, ids := range d.domains {
				c := canonicalDomain(dom)
				d.held[c] = append(d.held[c], ids...)
			}
		}
	})
	if err := d.heldFailed(nil); err != nil {
		return nil, err
	}
	c := canonicalDomain(domain)
	var found []int64
	if d.held != nil {
		found = d.held[c]
	} else {
		ws, err := d.websites.FindHolders(ctx, c, func(s string) bool { return canonicalDomain(s) == c })
		if err != nil {
			return nil, d.heldFailed(err)
		}
		for _, w := range ws {
			found = append(found, w.ID)
		}
	}
	d.deletedMu.Lock()
	defer d.deletedMu.Unlock()
	var ids []int64
	for _, id := range found {
		if !d.deletedIDs[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// heldFailed records err, a failed lookup of heldDomains (nil: none), and
// returns the first one recorded.
func (d *providerData) heldFailed(err error) error {
	d.heldMu.Lock()
	defer d.heldMu.Unlock()
	if d.heldErr == nil {
		d.heldErr = err
	}
	return d.heldErr
}

// checksAccount is the key user's account for the plan-time checks: one
// attempt (with the client's retries) per provider instance, whatever it
// answers. The client remembers only lasting answers, so that the owner
// checks of an apply retry after a transient failure; the checks of a plan
// asked again for every website, one at a time, each with its retries.
func (d *providerData) checksAccount(ctx context.Context) (*client.Account, error) {
	d.accountOnce.Do(func() {
		d.account, d.accountErr = d.client.Account(ctx)
	})
	return d.account, d.accountErr
}

// websitesCount returns how many websites the key's user holds now: the
// total of one list request of the smallest page; -1 (and no error) when
// the answer has no total. When that page holds every website (up to 10),
// it also returns their ids by domain (nil otherwise).
func (d *providerData) websitesCount(ctx context.Context) (int, map[string][]int64, error) {
	p, err := d.client.ListWebsites(ctx, client.ListOptions{PerPage: client.PerPageValues[0]})
	if err != nil {
		return -1, nil, err
	}
	if p.HasNext || len(p.Websites) != p.Total {
		return p.Total, nil, nil
	}
	domains := make(map[string][]int64, len(p.Websites))
	for _, w := range p.Websites {
		domains[w.Domain] = append(domains[w.Domain], w.ID)
	}
	return p.Total, domains, nil
}

// trackingCodeValue is the tracking code as an attribute value; unknown when
// the provider is not configured yet.
func (d *providerData) trackingCodeValue() types.String {
	if d == nil {
		return types.StringUnknown()
	}
	return types.StringValue(d.trackingCode)
}

// trackingCodeOr returns planned, or the tracking code when planned is
// unknown (the provider was not configured at plan time). A known planned
// value is kept as it is: the apply must produce what the plan showed.
func (d *providerData) trackingCodeOr(planned types.String) types.String {
	if planned.IsUnknown() {
		return d.trackingCodeValue()
	}
	return planned
}

// keyOwner returns the user the API key belongs to, fetched once per run, or
// nil on servers without GET /account (older builds).
func (d *providerData) keyOwner(ctx context.Context) (*websiteOwner, error) {
	a, err := d.client.Account(ctx)
	if errors.Is(err, client.ErrAccountUnsupported) {
		d.logNoAccount.Do(func() {
			tflog.Debug(ctx, "this server has no GET /api/v1/account (an older build): the owner of websites cannot be "+
				"checked; a refresh in which every managed website vanishes at once is refused instead")
		})
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ownerOf(a), nil
}
