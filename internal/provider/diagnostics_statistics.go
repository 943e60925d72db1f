package provider

// The diagnostics about statistics: the warnings of a plan that deletes a
// website's statistics (website_destroy.go) and the statistics data
// source's errors. The export action's are in diagnostics_export.go, the
// others in diagnostics.go.

import (
	"context"
	"errors"
	"fmt"
	"net/http"

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
	case s.Days == 0 && s.Events == 1:
		return "no pageviews, but 1 kind of custom event"
	case s.Days == 0:
		return fmt.Sprintf("no pageviews, but %d kinds of custom events", s.Events)
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
// bound the check's bound (the website's timeouts.read, or what was left of
// the plan's bound on its statistics checks).
func addStatisticsUnknown(diags *diag.Diagnostics, at path.Path, domain, newDomain string, bound checkBound,
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
			"applying. %s", what, plan, statisticsErrorReason(err, bound), keepAdvice))
}

// statisticsErrorReason says why the statistics check failed after its
// retries and waits: which of the causes it was, and what the server
// answered last.
func statisticsErrorReason(err error, bound checkBound) string {
	var de *client.DeadlineError
	switch {
	case errors.Is(err, client.ErrEventsNotChecked):
		return fmt.Sprintf("the command's budget of %d statistics requests was used up before the request for the "+
			"website's custom events (it has no day with pageviews, and events are recorded without one)", maxStatisticsRequests)
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
			"overloaded) until the provider gave up, past its retries or its waits within %s: %s", bound, err)
	case errors.As(err, &de):
		return fmt.Sprintf("the next retry, or the server's throttle (60 requests a minute on a default installation, "+
			"shared by every client of the address), would have held the check past %s: %s", bound, err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s: %s", bound, err)
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
