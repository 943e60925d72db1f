package provider

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// What destroying a website deletes.
//
// The application deletes a website's statistics with it: no archive, no
// undo. So a plan that destroys a website (terraform destroy, a resource
// removed from the configuration, a replacement because the domain
// changed) names the loss on that resource: how many days have pageviews,
// the first and the last, or, without pageviews, the custom events. It costs at most two statistics requests per
// website, plus retries, and maxStatisticsRequests per command (one
// provider instance), retries included; past that, one warning says how
// many websites were not checked. A statistics request that fails never
// fails the plan: the warning says the statistics could not be checked,
// and why. A website with skip_destroy is not deleted at all (only removed
// from the state): the plan says so, and sends no request.
//
// The check waits for the server's throttle as the plan's refresh does: its
// requests go through the pacer the command's other requests share, a 429
// or a 503 is retried after the wait the server asks for (Retry-After; a
// minute at most on a default installation), and the whole check of one
// website is bounded by the website's read timeout (timeouts.read, 5
// minutes by default), the bound of its refresh, and by the command's bound
// on all its checks (maxStatisticsWait from the first check's start): when
// other clients keep the throttle's window spent, the checks of a plan that
// destroys many websites (Terraform plans up to ten at a time) do not add
// up their waits. Every retry, like the second request, is taken from the
// command's budget.
//
// A replacement asked for with -replace (or of a tainted website) cannot be
// named: Terraform and OpenTofu plan the resource as unchanged (a tainted
// one as new), then ask the provider again with no prior state to plan the
// new object, and show only errors from that second call, never warnings
// (node_resource_abstract_instance.go, plan()).

// maxStatisticsRequests caps the statistics requests of one command
// (retries and the look-up after a "not found" included), so
// that a plan destroying many websites does not spend the throttle's
// budget (60 requests a minute, shared by every client of the IP) on them.
const maxStatisticsRequests = 20

// maxStatisticsWait bounds the statistics checks of one command: none goes
// on past this time after the first one began (each is also bounded by its
// website's timeouts.read).
const maxStatisticsWait = defaultReadTimeout

// The wait of the first website past the budget for the others, so that
// its warning can count them: until none has arrived for
// uncheckedQuietFor, at most uncheckedWaitMax.
const (
	uncheckedQuietFor = 300 * time.Millisecond
	uncheckedWaitMax  = 5 * time.Second
)

// statisticsBudget counts the statistics requests and the websites left
// unchecked of one command.
type statisticsBudget struct {
	limit          int           // requests
	quiet, maxWait time.Duration // see uncheckedQuietFor and uncheckedWaitMax
	wait           time.Duration // see maxStatisticsWait
	// now and pause are skip's clock: time.Now and client.Sleep, or the tests'
	// fake clock.
	now   func() time.Time
	pause func(ctx context.Context, d time.Duration) error

	mu        sync.Mutex
	deadline  time.Time // the end of the command's checks, from the first one's start
	used      int
	unchecked int
	latest    time.Time // when the latest unchecked website arrived
	reporter  bool      // a website has taken on the summary warning
}

func newStatisticsBudget() *statisticsBudget {
	return &statisticsBudget{limit: maxStatisticsRequests, quiet: uncheckedQuietFor, maxWait: uncheckedWaitMax,
		wait: maxStatisticsWait, now: time.Now, pause: client.Sleep}
}

// checkBound is how long one website's check may take, and what bounds it.
type checkBound struct {
	d       time.Duration
	command time.Duration // the command's bound when it is the shorter one, else 0
}

// readBound is the bound of a check that only its website's read timeout
// limits.
func readBound(d time.Duration) checkBound { return checkBound{d: d} }

func (b checkBound) String() string {
	if b.command > 0 {
		return fmt.Sprintf("the plan's bound on its statistics checks (%s in all from the first check's start; %s "+
			"were left for this one)", b.command, b.d.Round(time.Second))
	}
	return fmt.Sprintf("the website's read timeout (timeouts.read = %s)", b.d)
}

// bound returns the bound of a check starting now whose website's read
// timeout is read: that timeout, or what is left of the command's bound
// on all its checks when that is shorter (the first check starts that
// bound's clock).
func (b *statisticsBudget) bound(read time.Duration, now time.Time) checkBound {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.deadline.IsZero() {
		b.deadline = now.Add(b.wait)
	}
	if left := b.deadline.Sub(now); left < read {
		return checkBound{d: max(left, 0), command: b.wait}
	}
	return readBound(read)
}

// reserve takes one request from the budget, or reports false when none
// is left.
func (b *statisticsBudget) reserve() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used >= b.limit {
		return false
	}
	b.used++
	return true
}

// skip records a website left unchecked. The first one returns true and,
// once no other has arrived for a moment, the number of them; the others
// return false.
func (b *statisticsBudget) skip(ctx context.Context) (report bool, count int) {
	b.mu.Lock()
	b.unchecked++
	b.latest = b.now()
	if b.reporter {
		b.mu.Unlock()
		return false, 0
	}
	b.reporter = true
	b.mu.Unlock()

	deadline := b.now().Add(b.maxWait)
	for {
		b.mu.Lock()
		quietUntil := b.latest.Add(b.quiet)
		n := b.unchecked
		b.mu.Unlock()
		now := b.now()
		wait := quietUntil.Sub(now)
		if wait <= 0 || !now.Before(deadline) {
			return true, n
		}
		if err := b.pause(ctx, min(wait, deadline.Sub(now))); err != nil {
			return true, n
		}
	}
}

// planDestroy adds what destroying the website of state means to the plan:
// that it is kept (skip_destroy), or the statistics it loses. newDomain is
// the replacement's domain ("" for a destroy, "(known after apply)" when
// unknown); skipAfter is skip_destroy as this plan sets it for the new
// website, which does not protect the old one.
func (r *websiteResource) planDestroy(ctx context.Context, state websiteResourceModel, newDomain string, skipAfter bool,
	diags *diag.Diagnostics,
) {
	domain := state.Domain.ValueString()
	at := path.Empty()
	if newDomain != "" {
		at = path.Root("domain")
	}
	if state.SkipDestroy.ValueBool() {
		addWebsiteKept(diags, at, domain, state.ID.ValueString(), newDomain)
		return
	}
	id, err := strconv.ParseInt(state.ID.ValueString(), 10, 64)
	if err != nil || r.data == nil {
		return // no website to check (or no client: the provider is not configured yet)
	}
	budget := r.data.statistics
	if !budget.reserve() {
		if report, n := budget.skip(ctx); report {
			addStatisticsNotChecked(diags, n)
		}
		return
	}
	timeout, d := state.Timeouts.Read(ctx, defaultReadTimeout)
	if d.HasError() {
		timeout = defaultReadTimeout // the refresh reports it
	}
	bound := budget.bound(timeout, time.Now())
	ctx, cancel := context.WithTimeout(ctx, bound.d)
	defer cancel()
	sum, err := r.data.client.SummarizePageviews(ctx, id, budget.reserve)
	fields := map[string]any{"id": id, "domain": domain}
	if sum != nil {
		fields["days"], fields["requests"] = sum.Days, sum.Requests
	}
	if err != nil {
		fields["error"] = err.Error()
		tflog.Warn(ctx, "could not check the statistics of a website the plan destroys", fields)
		addStatisticsUnknown(diags, at, domain, newDomain, bound, sum, err)
		return
	}
	tflog.Debug(ctx, "checked the statistics of a website the plan destroys", fields)
	if sum.Any() {
		addStatisticsLoss(diags, at, domain, state.ID.ValueString(), newDomain, skipAfter, sum)
	}
}

// replacementDomain names the domain a replacement gets, for messages.
func replacementDomain(plan websiteResourceModel) string {
	if plan.Domain.IsUnknown() {
		return "(known after apply)"
	}
	return plan.Domain.ValueString()
}
