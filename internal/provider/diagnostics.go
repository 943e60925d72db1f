package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// apiFieldAttributes maps API form fields to resource attributes.
var apiFieldAttributes = map[string]string{
	"domain":         "domain",
	"privacy":        "privacy",
	"password":       "password",
	"email":          "email_reports",
	"exclude_bots":   "exclude_bots",
	"exclude_params": "exclude_params",
	"exclude_ips":    "exclude_ips",
}

// addAPIError turns a client error into diagnostics that say what happened,
// what the API answered and what the user can do. op is a verb such as
// "create"; domain names the website concerned.
func addAPIError(diags *diag.Diagnostics, op, domain string, err error) {
	what := "the website"
	switch {
	case domain != "":
		what = fmt.Sprintf("the website %q", domain)
	case op == "list":
		what = "the websites"
	}
	if errors.Is(err, client.ErrDuplicateDomain) { // the application has no unique index on domains
		diags.AddError("Several Websites With One Domain", fmt.Sprintf("Could not %s %s: %s.", op, what, err))
		return
	}
	if te, ok := client.AsTLSError(err); ok {
		addTLSError(diags, op, what, te)
		return
	}
	apiErr, ok := client.AsAPIError(err)
	if !ok {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			diags.AddError("Timed Out Talking to the Analytics API",
				fmt.Sprintf("Could not %s %s before the operation's time limit: %s. Check that the server is reachable "+
					"and responsive, or raise the limit in the resource's timeouts block or the provider's timeout.", op, what, err))
		default:
			diags.AddError("Unable to Reach the Analytics API",
				fmt.Sprintf("Could not %s %s: %s. Check base_url and the network path to the server, including the "+
					"proxy settings the provider follows (HTTPS_PROXY, HTTP_PROXY, NO_PROXY).", op, what, err))
		}
		return
	}
	answered := fmt.Sprintf("The API answered HTTP %d", apiErr.StatusCode)
	if apiErr.Message != "" {
		answered += fmt.Sprintf(": %q", apiErr.Message)
	}
	switch {
	case errors.Is(err, client.ErrValidation):
		for _, field := range apiErr.FieldNames() {
			for _, msg := range apiErr.Fields[field] {
				summary, detail := validationDetail(op, what, field, msg)
				if attr, known := apiFieldAttributes[field]; known {
					diags.AddAttributeError(path.Root(attr), summary, detail)
				} else {
					diags.AddError(summary, detail)
				}
			}
		}
		if len(apiErr.Fields) == 0 {
			diags.AddError("Website Rejected by the Server", fmt.Sprintf("Could not %s %s. %s.", op, what, answered))
		}
	case errors.Is(err, client.ErrUnauthenticated):
		diags.AddError("API Key Rejected",
			fmt.Sprintf("Could not %s %s: the server did not accept the API key (%s). Check the provider's api_key "+
				"(or the ANALYTICS_API_KEY environment variable) and that base_url points at the installation the key "+
				"belongs to.", op, what, strings.TrimPrefix(apiErr.Error(), apiErr.Method+" "+apiErr.Path+": ")))
	case errors.Is(err, client.ErrForbidden):
		diags.AddError("API Access Denied",
			fmt.Sprintf("Could not %s %s. %s. The API key is valid, but its user may not do this: usually the user's "+
				"plan does not include API access. Ask the installation's administrator to enable it.", op, what, answered))
	case errors.Is(err, client.ErrNotAPI):
		diags.AddAttributeError(path.Root("base_url"), "Unexpected Answer at base_url",
			fmt.Sprintf("Could not %s %s: %s. Nothing was changed and the state was kept as it is. Check the "+
				"provider's base_url (or the ANALYTICS_BASE_URL environment variable): it must be the URL of the "+
				"installation itself, the part before /api/v1.", op, what, apiErr.Error()))
	case errors.Is(err, client.ErrListChanged):
		diags.AddError("Website List Changed While Reading",
			fmt.Sprintf("Could not %s the websites: %s. Rather than return an incomplete list, the provider stopped; "+
				"apply again once no one else is creating or deleting websites.", op, apiErr.Message))
	case errors.Is(err, client.ErrNotFound):
		diags.AddError("Website Not Found",
			fmt.Sprintf("Could not %s %s. %s. It may have been deleted, or belong to another user.", op, what, answered))
	case errors.Is(err, client.ErrRateLimited):
		diags.AddError("Rate Limit Exceeded",
			fmt.Sprintf("Could not %s %s: the server's request limit was reached (%s). Wait a minute and retry, run "+
				"Terraform with lower -parallelism, or set requests_per_minute in the provider.", op, what, apiErr.Error()))
	case errors.Is(err, client.ErrUndecodable):
		diags.AddError("Unexpected Response From the Analytics API",
			fmt.Sprintf("Could not %s %s: %s. The provider expected the JSON documented for this endpoint; check that "+
				"base_url points at the analytics installation itself and not at a proxy or login page.", op, what, apiErr.Error()))
	case errors.Is(err, client.ErrServer) && apiErr.StatusCode == http.StatusServiceUnavailable:
		diags.AddError("Analytics Server Unavailable",
			fmt.Sprintf("Could not %s %s. %s. The installation is in maintenance mode (as during an upgrade) or "+
				"overloaded; retry once it answers again.", op, what, answered))
	default:
		diags.AddError("Analytics API Error",
			fmt.Sprintf("Could not %s %s. %s. This is a failure on the server side; retry later, and check the "+
				"server's logs if it persists.", op, what, answered))
	}
}

func validationDetail(op, what, field, msg string) (summary, detail string) {
	lower := strings.ToLower(msg)
	switch {
	case field == "domain" && strings.Contains(lower, "already been taken"):
		return "Domain Already Exists",
			fmt.Sprintf("Could not %s %s: the server answered %q. Domains are unique across all users of the "+
				"installation. If the website is yours but not yet managed by Terraform, import it: "+
				"terraform import <resource address> <domain>, or an import block with id = the domain. If another "+
				"user owns it, ask them or the administrator to remove it.", op, what, msg)
	case field == "domain" && strings.Contains(lower, "too many websites"):
		return "Website Limit Reached",
			fmt.Sprintf("Could not %s %s: the server answered %q. The API key's user has as many websites as its plan "+
				"allows. Delete websites you no longer need or move the user to a larger plan.", op, what, msg)
	}
	return "Website Rejected by the Server",
		fmt.Sprintf("Could not %s %s: the server rejected the field %q: %q. Correct the value and apply again.", op, what, field, msg)
}

// tflogLogger hands the client's log messages to tflog, with the context
// of the Terraform operation they belong to. The client never puts the API
// key or a password in its fields; as a second line of defence, mask (the
// API key and the extra headers' values) is masked out of every message
// and field.
type tflogLogger struct {
	mask []string
}

func (l tflogLogger) masked(ctx context.Context) context.Context {
	if len(l.mask) == 0 {
		return ctx
	}
	ctx = tflog.MaskMessageStrings(ctx, l.mask...)
	return tflog.MaskAllFieldValuesStrings(ctx, l.mask...)
}

func (l tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(l.masked(ctx), msg, fields)
}

func (l tflogLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	tflog.Info(l.masked(ctx), msg, fields)
}

func (l tflogLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(l.masked(ctx), msg, fields)
}

// addCreateError reports a failed create; a create whose outcome could not
// be told gets its own diagnostic, since the website may exist, and so does
// one that left several websites with the domain.
func addCreateError(diags *diag.Diagnostics, domain string, err error) {
	var unknown *client.CreateOutcomeUnknownError
	var dup *client.DuplicateCreateError
	if errors.As(err, &dup) {
		diags.AddError("Website Created Twice",
			fmt.Sprintf("%s. The server has no unique index on domains, so a create that outlived its time limit "+
				"and was sent again stored the website twice, and the provider could not safely remove the extra "+
				"one. Nothing was recorded in the state. Delete the extra website in the web interface, then import "+
				"the other one by id (an import block with id = \"<id>\") or apply again.", dup.Error()))
		return
	}
	if errors.As(err, &unknown) {
		diags.AddError("Website May Have Been Created",
			fmt.Sprintf("%s. Check the analytics web interface: if the website %q is there, import it "+
				"(terraform import <resource address> %s, or an import block with id = %q) before applying again; "+
				"otherwise apply again once the server answers.", unknown.Error(), domain, domain, domain))
		return
	}
	addAPIError(diags, "create", domain, err)
}

// addOwnerMismatch reports a website whose remembered owner (the user that
// created or imported it) is not the API key's user.
func addOwnerMismatch(diags *diag.Diagnostics, op, domain, id string, remembered, key websiteOwner) {
	diags.AddError("Website Belongs to Another User",
		fmt.Sprintf("Refusing to %s the website %q (id %s): it was created or imported by %s, but the configured "+
			"api_key belongs to %s. Nothing was read, changed or removed, and the state was kept as it is. Check the "+
			"provider's api_key (or the ANALYTICS_API_KEY environment variable): it must be the key of %s.",
			op, domain, id, remembered, key, remembered))
}

// addVanishedError reports a website that the API reports missing but that
// the vanishGuard did not let leave the state.
func addVanishedError(diags *diag.Diagnostics, op, domain, id string, key *websiteOwner, err error) {
	if !errors.Is(err, errVanished) {
		diags.AddError("Timed Out Talking to the Analytics API",
			fmt.Sprintf("Could not %s the website %q (id %s): %s.", op, domain, id, err))
		return
	}
	diags.AddError("Every Managed Website Vanished",
		fmt.Sprintf("Could not %s the website %q (id %s): the API answers that %s has no such website, and so far "+
			"in this run it has answered the same for every managed website it was asked about and found none. "+
			"That is what a valid API key of another user of the installation looks like, so the state was kept as "+
			"it is. Check the provider's api_key (or the ANALYTICS_API_KEY environment variable). If the websites "+
			"were really deleted, remove them from the state with terraform state rm.", op, domain, id, keyUser(key)))
}

// addTLSError reports a failed TLS connection: what is wrong with the
// certificate or the handshake, and the setting that fixes it.
func addTLSError(diags *diag.Diagnostics, op, what string, te *client.TLSError) {
	failed := fmt.Sprintf("Could not %s %s: %s.", op, what, te.Error())
	const caFix = "If the installation's certificate comes from a private or corporate CA, give that CA's certificate " +
		"in the provider's ca_file or ca_pem (or the " + EnvCAFile + " or " + EnvCAPEM + " environment variable); it is " +
		"trusted in addition to the system's roots."
	const certFix = "Set the provider's cert_file and key_file, or cert_pem and key_pem (or the " + EnvCertFile + " and " +
		EnvKeyFile + ", or " + EnvCertPEM + " and " + EnvKeyPEM + " environment variables)"
	switch te.Problem {
	case client.TLSUnknownAuthority:
		detail := failed + " " + caFix
		if te.CustomCA {
			detail = failed + " The CA certificates given in ca_file or ca_pem (or " + EnvCAFile + " / " + EnvCAPEM + ") " +
				"do not include the one that signed the server's certificate, nor any intermediate leading to it: give the " +
				"CA that issued it (its issuer is named above)."
		}
		diags.AddError("Server Certificate Signed by an Unknown Authority", detail)
	case client.TLSHostnameMismatch:
		diags.AddAttributeError(path.Root("base_url"), "Server Certificate Does Not Match base_url",
			fmt.Sprintf("%s The host name in base_url (or %s) must be one the certificate names: use one of %s in "+
				"base_url, or have the certificate reissued for %q.", failed, EnvBaseURL, quoteNames(te.Names), te.Host))
	case client.TLSExpired:
		diags.AddError("Server Certificate Expired or Not Yet Valid",
			failed+" Renew the installation's certificate (and check this machine's clock). Nothing in the provider "+
				"configuration can fix this except skip_verify, which would expose the API key to the network path.")
	case client.TLSClientCertRequired:
		diags.AddError("Client Certificate Required",
			failed+" The installation, or a proxy in front of it, requires mutual TLS. "+certFix+" to the client "+
				"certificate and private key issued for it.")
	case client.TLSClientCertRejected:
		diags.AddError("Client Certificate Rejected",
			failed+" The configured client certificate (cert_file or cert_pem, or "+EnvCertFile+" / "+EnvCertPEM+") is "+
				"not one the server accepts: check that it is issued by the CA the server trusts for clients, that it "+
				"is still valid, and that it is the certificate meant for this installation.")
	case client.TLSNotTLS:
		diags.AddAttributeError(path.Root("base_url"), "Server Does Not Speak TLS",
			failed+" Check the port in base_url (or "+EnvBaseURL+"): it may be the server's plain HTTP port. Use http:// "+
				"only if the connection is otherwise protected, since the API key would travel unencrypted.")
	default:
		diags.AddError("Server Certificate Not Valid", failed+" "+caFix)
	}
}

func quoteNames(names []string) string {
	if len(names) == 0 {
		return "the names it is issued for (it names none)"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// addWebsiteLimitError reports why the plan-time website limit check could
// not run: a TLS failure is an error (the apply would fail the same way);
// anything else a warning, so that a plan never passes a broken connection
// in silence.
func addWebsiteLimitError(diags *diag.Diagnostics, domain string, err error) {
	if te, ok := client.AsTLSError(err); ok {
		addTLSError(diags, "plan the creation of", fmt.Sprintf("the website %q", domain), te)
		return
	}
	diags.AddAttributeWarning(path.Root("domain"), "Website Limit Not Checked",
		fmt.Sprintf("Could not check whether creating the website %q stays within the user's plan: %s. The plan "+
			"goes on; the apply talks to the same server and may fail the same way.", domain, err))
}

// addNoWebsitesFound warns that a list of websites (the analytics_website
// list resource) found none, naming whose websites were listed and where,
// so that a wrong api_key or base_url is not mistaken for an empty account.
// The server did answer as the API (anything else is an error). filtered
// tells whether the list had filters.
func addNoWebsitesFound(diags *diag.Diagnostics, key *websiteOwner, baseURL string, filtered bool) {
	what := "has no websites"
	if filtered {
		what = "has no website that matches the list's config"
	}
	diags.AddWarning("No Websites Found",
		fmt.Sprintf("The API at %s answered that %s %s. If you expected websites, check the provider's api_key (or "+
			"the %s environment variable): the API shows each user only their own websites, so the key of another "+
			"user of the installation lists theirs, or none.", baseURL, keyUser(key), what, EnvAPIKey))
}

// addFavoritesUnsupported reports a list filtered on favorite by a server
// that does not know favorites (older builds ignore the filter, so the
// list would hold every website).
func addFavoritesUnsupported(diags *diag.Diagnostics, baseURL string) {
	diags.AddError("Favorites Not Supported by the Server",
		fmt.Sprintf("The list's config filters on favorite, but the API at %s returns websites without a favorite "+
			"field: it is an older build without favorites, which ignores the filter. Nothing was listed. Remove "+
			"favorite from the list block's config, or upgrade the installation.", baseURL))
}

// warnAt adds a warning on the attribute at, or on the resource when at is
// empty (a destroy has no planned attribute to point at).
func warnAt(diags *diag.Diagnostics, at path.Path, summary, detail string) {
	if len(at.Steps()) == 0 {
		diags.AddWarning(summary, detail)
		return
	}
	diags.AddAttributeWarning(at, summary, detail)
}

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
// deletes could not be checked; s is what was learnt, if anything.
func addStatisticsUnknown(diags *diag.Diagnostics, at path.Path, domain, newDomain string, s *client.PageviewSummary, err error) {
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
			"applying. %s", what, plan, statisticsErrorReason(err), keepAdvice))
}

// statisticsErrorReason says why a statistics request failed.
func statisticsErrorReason(err error) string {
	apiErr, ok := client.AsAPIError(err)
	switch {
	case errors.Is(err, client.ErrNotFound):
		return "the server answered 404 \"Resource not found.\" for its statistics (GET /api/v1/stats/{id}): the " +
			"website may belong to another user than the API key's, or the server's build may have no statistics API"
	case errors.Is(err, client.ErrRateLimited):
		return fmt.Sprintf("the server's request limit was reached (%s)", strings.TrimPrefix(err.Error(), apiErr.Method+" "+apiErr.Path+": "))
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer in time (%s)", err)
	case ok:
		return fmt.Sprintf("the statistics request failed: %s", err)
	default:
		return fmt.Sprintf("the server could not be reached: %s", err)
	}
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

// addWebsiteIDNotFound reports, on the attribute at, that the API key's
// user has no website with id (the data sources' lookups by id).
func addWebsiteIDNotFound(diags *diag.Diagnostics, at path.Path, id int64) {
	diags.AddAttributeError(at, "Website Not Found",
		fmt.Sprintf("No website with id %d belongs to this API key's user (the API answered 404). "+
			"Check the id, or look the website up by domain.", id))
}

// addWebsiteDomainNotFound reports, on the attribute at, that the API key's
// user has no website with the exact domain (the data sources' lookups by
// domain).
func addWebsiteDomainNotFound(diags *diag.Diagnostics, at path.Path, domain string) {
	diags.AddAttributeError(at, "Website Not Found",
		fmt.Sprintf("No website with the exact domain %q belongs to this API key's user. Check the spelling "+
			"(domains are stored in lower case, without scheme or leading \"www.\").", domain))
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
		addExportTimedOut(diags, domain, "looking the website up", err)
		return
	}
	addAPIError(diags, "export the statistics of", domain, err)
}

// addExportReadError reports that a statistics name could not be read;
// requests are those made by the export so far.
func addExportReadError(diags *diag.Diagnostics, domain, name string, requests int, timeout time.Duration, err error) {
	switch {
	case errors.Is(err, client.ErrStatisticsUnsupported):
		diags.AddError("Statistics Not Available",
			fmt.Sprintf("Could not export the statistics of the website %q: %s. The installation's build is older "+
				"than the statistics API; export the statistics in the web interface instead, or upgrade the "+
				"installation. %s", domain, err, exportNothingLeft))
	case serverUnavailable(err):
		diags.AddError("Analytics Server Unavailable",
			fmt.Sprintf("Could not export the statistics of the website %q: while reading %q (request %d of the export), "+
				"the server answered 503 Service Unavailable until the provider gave up: %s. The installation is in "+
				"maintenance mode (as during an upgrade) or overloaded; invoke the action again once it answers. %s",
				domain, name, requests, err, exportNothingLeft))
	case errors.Is(err, context.DeadlineExceeded):
		addExportTimedOut(diags, domain, fmt.Sprintf("reading %q after %d requests, within timeout = %q", name, requests,
			timeout.String()), err)
	default:
		var api diag.Diagnostics
		addAPIError(&api, "export the statistics of", domain, err)
		for _, d := range api {
			diags.AddError(d.Summary(), fmt.Sprintf("%s While reading %q (request %d of the export). %s",
				d.Detail(), name, requests, exportNothingLeft))
		}
	}
}

// serverUnavailable reports whether err is a 503 (the installation in
// maintenance mode), or the retries gave up at the time limit after one:
// that is the cause to name, not the time limit. The transport describes
// the last answer of a DeadlineError as text ("HTTP 503: ...").
func serverUnavailable(err error) bool {
	if apiErr, ok := client.AsAPIError(err); ok {
		return apiErr.StatusCode == http.StatusServiceUnavailable
	}
	var de *client.DeadlineError
	return errors.As(err, &de) && de.Last != nil && strings.HasPrefix(de.Last.Error(), "HTTP 503")
}

// addExportTimedOut reports an export that ran out of time (the server's
// throttle or retries would have waited past the action's timeout).
func addExportTimedOut(diags *diag.Diagnostics, domain, when string, err error) {
	diags.AddAttributeError(path.Root("timeout"), "Statistics Export Timed Out",
		fmt.Sprintf("Could not export the statistics of the website %q before the action's time limit (%s): %s. "+
			"Every request is paced to the server's throttle (60 requests a minute on a default installation, "+
			"shared by every client of the address), and a website with many rows needs one request per 100 rows "+
			"of each statistics name. Raise the action's timeout, or run it when other clients are idle. %s",
			domain, when, err, exportNothingLeft))
}

// addExportWriteError reports that the export's files could not be
// written under dir: the folder exists, or cannot be created or written.
func addExportWriteError(diags *diag.Diagnostics, domain, dir string, err error) {
	if errors.Is(err, errExportExists) {
		diags.AddAttributeError(path.Root("directory"), "Statistics Export Folder Exists",
			fmt.Sprintf("Could not export the statistics of the website %q: %s. An export never writes into or over "+
				"an earlier one, and nothing was changed there. Invoke the action again in a second (the folder is "+
				"named after the time), or set another directory.", domain, err))
		return
	}
	diags.AddAttributeError(path.Root("directory"), "Unable to Write the Statistics Export",
		fmt.Sprintf("Could not write the statistics export of the website %q under directory = %q: %s. Check that "+
			"the directory can be created, that the user running Terraform may write to it, and that its disk has "+
			"free space. %s", domain, dir, err, exportNothingLeft))
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
