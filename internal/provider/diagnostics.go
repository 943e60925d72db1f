package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// apiFieldAttributes maps API form fields to resource attributes (derived
// from website_attributes.go).
var apiFieldAttributes = websiteAPIFieldAttributes()

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
	addAPIErrorAbout(diags, op, what, err)
}

// addWriteError is addAPIError for a create or an update: when the
// configuration gives the password as password_wo (writeOnly), the server's
// refusal of the API's password field is on password_wo, the attribute the
// user set, not on the unset password.
func addWriteError(diags *diag.Diagnostics, op, domain string, writeOnly bool, err error) {
	attrs := apiFieldAttributes
	if writeOnly {
		attrs = maps.Clone(apiFieldAttributes)
		attrs["password"] = "password_wo"
	}
	reportAPIError(diags, op, fmt.Sprintf("the website %q", domain), attrs, err)
}

// addAPIErrorAbout is addAPIError with the website named by the caller
// ("the website with id 12"): what must quote nothing that may hold a
// password.
func addAPIErrorAbout(diags *diag.Diagnostics, op, what string, err error) {
	reportAPIError(diags, op, what, apiFieldAttributes, err)
}

// reportAPIError is addAPIError with the attribute of each API field
// (attrs) given.
func reportAPIError(diags *diag.Diagnostics, op, what string, attrs map[string]string, err error) {
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
		var untimed *client.DeadlineError
		switch {
		case errors.Is(err, context.Canceled):
			diags.AddError("Operation Cancelled",
				fmt.Sprintf("Could not %s %s: the operation was cancelled (interrupted, as by Ctrl-C) before it "+
					"finished (%s). Run Terraform again to finish it.", op, what, err))
		case errors.As(err, &untimed) && untimed.Untimed:
			diags.AddError("Timed Out Talking to the Analytics API", untimedAdvice(op, what, err, untimed))
		case errors.As(err, &untimed) && waitCause(untimed) != "":
			diags.AddError("Timed Out Talking to the Analytics API",
				fmt.Sprintf("Could not %s %s before the operation's time limit: %s. %s, or raise the limit in the "+
					"resource's timeouts block.", op, what, strings.TrimSuffix(err.Error(), "."), waitCause(untimed)))
		case errors.Is(err, context.DeadlineExceeded):
			diags.AddError("Timed Out Talking to the Analytics API",
				fmt.Sprintf("Could not %s %s before the operation's time limit: %s. Check that the server is reachable "+
					"and responsive, or raise the limit in the resource's timeouts block or the provider's timeout.",
					op, what, strings.TrimSuffix(err.Error(), ".")))
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
				if attr, known := attrs[field]; known {
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
				"apply again once no one else is creating, deleting or renaming websites.", op, apiErr.Message))
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

// addCreateError reports a failed create; a create whose outcome could not
// be told gets its own diagnostic, since the website may exist, and so does
// one that left several websites with the domain.
func addCreateError(diags *diag.Diagnostics, domain string, writeOnly bool, err error) {
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
	if errors.As(err, &unknown) && errors.Is(unknown.LookupErr, context.Canceled) {
		diags.AddError("Create Cancelled; Website May Have Been Created",
			fmt.Sprintf("The create of the website %q was cancelled (interrupted, as by Ctrl-C) after a request that "+
				"may have reached the server, so the website may have been stored although it is not in the Terraform "+
				"state. Check the analytics web interface: if the website is there, import it (terraform import "+
				"<resource address> %s, or an import block with id = %q) before applying again; otherwise apply "+
				"again. Details: %s.", domain, domain, domain, unknown.Error()))
		return
	}
	if errors.As(err, &unknown) {
		diags.AddError("Website May Have Been Created",
			fmt.Sprintf("%s. Check the analytics web interface: if the website %q is there, import it "+
				"(terraform import <resource address> %s, or an import block with id = %q) before applying again; "+
				"otherwise apply again once the server answers.", unknown.Error(), domain, domain, domain))
		return
	}
	if errors.Is(err, context.Canceled) {
		// CreateWebsite returns a bare cancel only when no request can have
		// reached the application.
		diags.AddError("Create Cancelled",
			fmt.Sprintf("The create of the website %q was cancelled (interrupted, as by Ctrl-C) before any request "+
				"reached the application (%s), so no website was stored. Nothing was recorded in the state; apply "+
				"again to create it.", domain, err))
		return
	}
	addWriteError(diags, "create", domain, writeOnly, err)
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
// the missingWebsiteGuard did not let leave the state.
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

// addClientCertError reports a client certificate or key that does not
// parse or a pair that does not belong together.
func addClientCertError(diags *diag.Diagnostics, err error, certSrc, keySrc settingSource) {
	var ce *client.TLSConfigError
	part := client.TLSPartClientPair
	if errors.As(err, &ce) {
		part = ce.Part
		err = ce.Err
	}
	switch part {
	case client.TLSPartClientCert:
		diags.AddAttributeError(certSrc.path, "Invalid Client Certificate",
			fmt.Sprintf("The client certificate in %s is not usable: %s. Give a PEM certificate in %s.", certSrc.name, err, certSetting.names()))
	case client.TLSPartClientKey:
		diags.AddAttributeError(keySrc.path, "Invalid Client Key",
			fmt.Sprintf("The private key in %s is not usable: %s. Give the certificate's unencrypted PEM private key in %s.",
				keySrc.name, err, keySetting.names()))
	default:
		diags.AddAttributeError(keySrc.path, "Client Certificate and Key Do Not Match",
			fmt.Sprintf("The private key in %s does not belong to the certificate in %s (%s). Give the key that was "+
				"issued with the certificate.", keySrc.name, certSrc.name, err))
	}
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
func addWebsiteLimitError(diags *diag.Diagnostics, domain types.String, err error) {
	if te, ok := client.AsTLSError(err); ok {
		addTLSError(diags, "plan the creation of", plannedWebsite(domain), te)
		return
	}
	cause := strings.TrimRight(err.Error(), ".")
	var next string
	switch {
	case errors.Is(err, client.ErrForbidden):
		next = "At apply the server will refuse the create the same way: the API key is valid, but its user's plan " +
			"does not include API access. Ask the installation's administrator for a plan with API access before applying."
	case errors.Is(err, client.ErrUnauthenticated):
		next = "At apply the server will refuse the create the same way: it does not accept the API key. Check the " +
			"provider's api_key (or the " + EnvAPIKey + " environment variable) and that base_url points at the " +
			"installation the key belongs to."
	default:
		next = "The plan goes on; the apply talks to the same server and may fail the same way: if it does, retry " +
			"once the server answers again."
	}
	diags.AddAttributeWarning(path.Root("domain"), "Website Limit Not Checked",
		fmt.Sprintf("Could not check whether creating %s stays within the user's plan: %s. %s", plannedWebsite(domain), cause, next))
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
			"(domains are stored in lower case, without scheme or leading \"www.\")%s.", domain, otherFormHint(domain)))
}

// untimedAdvice is the error of an operation without a time limit of its
// own (a data source, an import, a plan's checks, a list) that would have
// had to wait longer than client.UntimedWaitLimit at once.
func untimedAdvice(op, what string, err error, de *client.DeadlineError) string {
	lead := fmt.Sprintf("Could not %s %s: %s. (Data sources, imports, a plan's checks and lists have no time limit "+
		"of their own.)", op, what, strings.TrimSuffix(err.Error(), "."))
	if cause := waitCause(de); cause != "" {
		return lead + " " + cause + "."
	}
	return lead + " Run Terraform again once the server answers."
}

// waitCause is the advice for the cause of a wait the client refused to
// make (de), "" when it was a plain retry's.
func waitCause(de *client.DeadlineError) string {
	switch {
	case de.Limiter:
		return "Raise the provider's requests_per_minute, or remove it"
	case de.Status == http.StatusServiceUnavailable:
		return "The installation is in maintenance mode (as during an upgrade) or overloaded; run Terraform again " +
			"once it answers"
	case de.Status == http.StatusTooManyRequests || de.Throttled:
		return "The server's rate limit, which every client of this address shares, is spent; run Terraform again " +
			"once it answers, with lower -parallelism"
	}
	return ""
}
