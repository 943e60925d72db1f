package provider

// The diagnostics about statistics: the warnings of a plan that deletes a
// website's statistics (website_destroy.go), the statistics data source's
// and the export action's errors. The others are in diagnostics.go.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// destroyWhat says what a plan does to the website domain: "Destroying the
// website ..." or, for a replacement (newDomain set), "Changing the domain
// ... replaces the website ...; the website ...".
func destroyWhat(domain, id, newDomain string) string {
	if newDomain == "" {
		return fmt.Sprintf("Destroying the website %q (id %s)", domain, id)
	}
	return fmt.Sprintf("Changing the domain from %q to %q replaces the website: deleting the website %q (id %s)",
		domain, newDomain, domain, id)
}

// pageviewDays describes a pageview summary: "3 days with pageviews, from
// 2024-02-27 to 2024-02-29".
func pageviewDays(s *client.PageviewSummary) string {
	switch {
	case s.Days == 1:
		return "1 day with pageviews, " + s.First
	case s.Last == "":
		return fmt.Sprintf("%d days with pageviews, from %s (the last day was not read: the plan's budget of statistics "+
			"requests was used up)", s.Days, s.First)
	default:
		return fmt.Sprintf("%d days with pageviews, from %s to %s", s.Days, s.First, s.Last)
	}
}

// keepAdvice is how a user keeps a website's statistics.
const keepAdvice = "To keep the website and its statistics on the server, set skip_destroy = true and apply that " +
	"first (the website then only leaves the Terraform state); to make Terraform refuse any plan that destroys it, add " +
	"lifecycle { prevent_destroy = true }; to keep a copy of the history, export it with the action " +
	"analytics_website_statistics_export (Terraform 1.14 or later) before applying: by hand with terraform apply " +
	"-invoke=action.analytics_website_statistics_export.NAME, or before terraform destroy, a new domain or -replace " +
	"with lifecycle { action_trigger { events = [before_destroy] actions = " +
	"[action.analytics_website_statistics_export.NAME] } } on the website (Terraform 1.16 or later; removing the " +
	"website's block from the configuration skips the trigger, so export by hand first)."

// addStatisticsLoss warns that a plan deletes a website with statistics.
// skipAfter is skip_destroy as the plan sets it, which does not protect the
// website being replaced.
func addStatisticsLoss(diags *diag.Diagnostics, at path.Path, domain, id, newDomain string, skipAfter bool,
	s *client.PageviewSummary,
) {
	summary := "Destroying the Website Deletes Its Statistics"
	if newDomain != "" {
		summary = "Replacing the Website Deletes Its Statistics"
	}
	detail := fmt.Sprintf("%s also deletes its statistics on the server: %s. The application keeps no archive and "+
		"has no undo.", destroyWhat(domain, id, newDomain), pageviewDays(s))
	if newDomain != "" {
		detail += " The new website starts without statistics."
	}
	if skipAfter {
		detail += " skip_destroy = true in the configuration does not protect this website yet: it takes effect once " +
			"applied, so apply skip_destroy = true on its own first, then the change."
	}
	warnAt(diags, at, summary, detail+" "+keepAdvice)
}

// addStatisticsUnknown warns that the statistics of a website the plan
// deletes could not be checked; s is what was learnt, if anything, and
// timeout the check's bound (the website's timeouts.read).
func addStatisticsUnknown(diags *diag.Diagnostics, at path.Path, domain, newDomain string, timeout time.Duration,
	s *client.PageviewSummary, err error,
) {
	what := fmt.Sprintf("whether the website %q has statistics", domain)
	if s != nil && s.Days > 0 {
		what = fmt.Sprintf("the statistics of the website %q in full (it has %d days with pageviews, the first on %s)",
			domain, s.Days, s.First)
	}
	plan := "this plan destroys it"
	if newDomain != "" {
		plan = fmt.Sprintf("this plan replaces it (new domain %q)", newDomain)
	}
	warnAt(diags, at, "Statistics Not Checked",
		fmt.Sprintf("Could not check %s before %s: %s. The plan is otherwise unaffected, but deleting the website "+
			"deletes any statistics it recorded, with no archive and no undo: check them in the web interface before "+
			"applying. %s", what, plan, statisticsErrorReason(err, timeout), keepAdvice))
}

// statisticsErrorReason says why the statistics check failed after its
// retries and waits: which of the causes it was, and what the server
// answered last.
func statisticsErrorReason(err error, timeout time.Duration) string {
	var de *client.DeadlineError
	switch {
	case errors.Is(err, client.ErrRequestBudget):
		return fmt.Sprintf("the command's budget of %d statistics requests was used up before the request that would "+
			"have answered (a retry, or the look-up of the website after a \"not found\"); the last answer: %s",
			maxStatisticsRequests, err)
	case errors.Is(err, client.ErrStatisticsUnsupported):
		return "the installation has no statistics endpoint: it answers GET /api/v1/stats/{id} with 404 \"Resource not " +
			"found.\" although GET /api/v1/websites/{id} finds the website, as builds older than the statistics API do"
	case errors.Is(err, client.ErrNotFound):
		return "neither the website nor its statistics were found with the API key (HTTP 404 \"Resource not found.\"): " +
			"the website was deleted outside Terraform, or belongs to another user than the key's"
	case serverUnavailable(err):
		return fmt.Sprintf("the server answered 503 Service Unavailable (maintenance mode, as during an upgrade, or "+
			"overloaded) until the provider gave up, past its retries or its waits within the website's read timeout "+
			"(timeouts.read = %s): %s", timeout, err)
	case errors.As(err, &de):
		return fmt.Sprintf("the next retry, or the server's throttle (60 requests a minute on a default installation, "+
			"shared by every client of the address), would have held the check past the website's read timeout "+
			"(timeouts.read = %s): %s", timeout, err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within the website's read timeout (timeouts.read = %s): %s", timeout, err)
	case errors.Is(err, client.ErrRateLimited):
		return fmt.Sprintf("the server's request limit was still reached after the provider's retries (%s)", err)
	}
	if _, ok := client.AsAPIError(err); ok {
		return fmt.Sprintf("the statistics request failed after the provider's retries: %s", err)
	}
	return fmt.Sprintf("the server could not be reached: %s", err)
}

// addStatisticsNotChecked is the one warning of a command about the
// websites it destroys whose statistics were not checked, past the budget.
func addStatisticsNotChecked(diags *diag.Diagnostics, n int) {
	websites := "1 website this plan destroys was"
	if n != 1 {
		websites = fmt.Sprintf("%d websites this plan destroys were", n)
	}
	diags.AddWarning("Statistics of Some Websites Not Checked",
		fmt.Sprintf("The provider checks the statistics of the websites a plan destroys with at most %d requests per "+
			"command, to stay within the server's request limit; %s not checked (this count may miss websites planned "+
			"after this warning). Destroying a website deletes its statistics with it, with no archive and no undo: "+
			"review the destroyed websites in the web interface, or destroy fewer at once (for example with -target) "+
			"to see each one's statistics named in the plan. %s", maxStatisticsRequests, websites, keepAdvice))
}

// addWebsiteKept says that a plan leaves a website with skip_destroy on the
// server.
func addWebsiteKept(diags *diag.Diagnostics, at path.Path, domain, id, newDomain string) {
	what := fmt.Sprintf("destroying the website %q (id %s) only removes it from the Terraform state", domain, id)
	if newDomain != "" {
		what = fmt.Sprintf("replacing the website %q (id %s), whose domain changes to %q, only removes it from the "+
			"Terraform state, and a new website %q is created", domain, id, newDomain, newDomain)
	}
	warnAt(diags, at, "Website Will Be Kept on the Server",
		fmt.Sprintf("skip_destroy is true: %s. The website %q stays on the server with its statistics; it keeps "+
			"recording pageviews and counts against the plan's website limit. Delete it in the web interface once it "+
			"is no longer needed, or import it again to manage it.", what, domain))
}

// addStatisticsUnsupported reports an installation whose build has no
// statistics API: GET /stats/{id} answers "not found" for a website that
// GET /websites/{id} finds.
func addStatisticsUnsupported(diags *diag.Diagnostics, baseURL, what string, id int64) {
	diags.AddError("Statistics Not Supported by the Server",
		fmt.Sprintf("Could not read the statistics of %s (id %d): the API at %s answers GET /api/v1/stats/%d with "+
			"404 \"Resource not found.\" although it finds the website itself, so its build has no statistics API "+
			"(older builds answer every unknown path that way). Upgrade the installation to a build with the statistics "+
			"API, or remove the analytics_website_statistics data source (and the checks that use it) from the "+
			"configuration.", what, id, baseURL, id))
}

// The statistics export (the analytics_website_statistics_export action).

// exportNothingLeft ends every message of a failed export.
const exportNothingLeft = "No export was left behind: the files written so far were removed. The website and its " +
	"statistics on the server are untouched."

// exportLeftBehind ends the message of a failed export whose cleanup
// failed too: what may remain, and where (err is the cleanup's error).
func exportLeftBehind(err error) string {
	var ce *cleanupError
	if errors.As(err, &ce) {
		return fmt.Sprintf("The export's files could not all be removed: %s may remain in %s (%v). They are what "+
			"a failed export wrote, not a complete export: delete them by hand. The website and its statistics on "+
			"the server are untouched.", strings.Join(ce.left, ", "), ce.where, ce.err)
	}
	return fmt.Sprintf("The export's files could not all be removed (%v): what it wrote so far may remain; delete "+
		"it by hand. The website and its statistics on the server are untouched.", err)
}

// addExportWebsiteError reports that the website to export could not be
// found or read; id or domain is the one configured.
func addExportWebsiteError(diags *diag.Diagnostics, id, domain string, err error) {
	if errors.Is(err, client.ErrNotFound) {
		at, what := path.Root("website_id"), fmt.Sprintf("with id %s", id)
		if id == "" {
			at, what = path.Root("domain"), fmt.Sprintf("with the exact domain %q", domain)
		}
		diags.AddAttributeError(at, "Website Not Found",
			fmt.Sprintf("Could not export statistics: no website %s belongs to the API key's user. Check the "+
				"action's %s and that the provider's api_key is the key of the website's owner. Nothing was written.",
				what, at))
		return
	}
	if errors.Is(err, context.DeadlineExceeded) && !serverUnavailable(err) {
		addExportTimedOut(diags, domain, "looking the website up", err, exportNothingLeft)
		return
	}
	addAPIError(diags, "export the statistics of", domain, err)
}

// addExportReadError reports that a statistics name could not be read;
// requests are those made by the export so far, left what the failed
// export left behind (exportNothingLeft or exportLeftBehind).
func addExportReadError(diags *diag.Diagnostics, domain, name string, requests int, timeout time.Duration, err error,
	left string,
) {
	switch {
	case errors.Is(err, client.ErrStatisticsUnsupported):
		diags.AddError("Statistics Not Available",
			fmt.Sprintf("Could not export the statistics of the website %q: %s. The installation's build is older "+
				"than the statistics API; export the statistics in the web interface instead, or upgrade the "+
				"installation. %s", domain, err, left))
	case serverUnavailable(err):
		diags.AddError("Analytics Server Unavailable",
			fmt.Sprintf("Could not export the statistics of the website %q: while reading %q (request %d of the export), "+
				"the server answered 503 Service Unavailable until the provider gave up: %s. The installation is in "+
				"maintenance mode (as during an upgrade) or overloaded; invoke the action again once it answers. %s",
				domain, name, requests, err, left))
	case errors.Is(err, context.DeadlineExceeded):
		addExportTimedOut(diags, domain, fmt.Sprintf("reading %q after %d requests, within timeout = %q", name, requests,
			timeout.String()), err, left)
	default:
		var api diag.Diagnostics
		addAPIError(&api, "export the statistics of", domain, err)
		for _, d := range api {
			diags.AddError(d.Summary(), fmt.Sprintf("%s While reading %q (request %d of the export). %s",
				d.Detail(), name, requests, left))
		}
	}
}

// serverUnavailable reports whether err is a 503 (the installation in
// maintenance mode), or the retries gave up at the time limit after one:
// that is the cause to name, not the time limit.
func serverUnavailable(err error) bool {
	if apiErr, ok := client.AsAPIError(err); ok {
		return apiErr.StatusCode == http.StatusServiceUnavailable
	}
	var de *client.DeadlineError
	return errors.As(err, &de) && de.Status == http.StatusServiceUnavailable
}

// addExportTimedOut reports an export that ran out of time (the server's
// throttle or retries would have waited past the action's timeout).
func addExportTimedOut(diags *diag.Diagnostics, domain, when string, err error, left string) {
	diags.AddAttributeError(path.Root("timeout"), "Statistics Export Timed Out",
		fmt.Sprintf("Could not export the statistics of the website %q before the action's time limit (%s): %s. "+
			"Every request is paced to the server's throttle (60 requests a minute on a default installation, "+
			"shared by every client of the address), and a website with many rows needs one request per 100 rows "+
			"of each statistics name. Raise the action's timeout, or run it when other clients are idle. %s",
			domain, when, err, left))
}

// addDeleteAfterFailedExport refuses to delete a website whose statistics
// export failed earlier in the same run: during terraform destroy,
// Terraform turns a failed before_destroy action into a warning and goes
// on, which would delete the statistics the export was meant to keep.
func addDeleteAfterFailedExport(diags *diag.Diagnostics, domain, id, reason string) {
	diags.AddError("Website Kept: Its Statistics Export Failed",
		fmt.Sprintf("Refusing to delete the website %q (id %s): the export of its statistics "+
			"(analytics_website_statistics_export) failed earlier in this run (%s), and deleting the website would "+
			"delete its statistics with no copy. The website, its statistics and the state are untouched. Fix the "+
			"cause and apply again; to delete the website without a copy, remove the action from its action_trigger "+
			"first.", domain, id, reason))
}
