package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The diagnostics of the account: the analytics_account data source's
// errors and the plan-time warnings about what the key user's plan allows
// (website_plan.go). None of the warnings fails a plan: the count can
// change between plan and apply, and Terraform runs unrelated creates and
// deletes in any order; a precondition on analytics_account is the hard
// stop (see its documentation).

// plannedWebsite names the website a plan writes: `the website "x"`, or,
// when its domain comes from another resource, what is known of it.
func plannedWebsite(domain types.String) string {
	if domain.IsUnknown() {
		return "a website whose domain is known only after apply"
	}
	return fmt.Sprintf("the website %q", domain.ValueString())
}

// plannedDomain is a planned domain as the warnings name it.
func plannedDomain(domain types.String) string {
	if domain.IsUnknown() {
		return "a domain known only after apply"
	}
	return fmt.Sprintf("%q", domain.ValueString())
}

// countWebsites is "1 website" or "n websites".
func countWebsites(n int) string {
	if n == 1 {
		return "1 website"
	}
	return fmt.Sprintf("%d websites", n)
}

// hardStopHint ends the limit warnings.
const hardStopHint = " For a hard stop at plan time, add a precondition on the analytics_account data source."

// addAccountUnsupported reports a server without GET /account.
func addAccountUnsupported(diags *diag.Diagnostics, baseURL string) {
	diags.AddError("Account Not Available on This Server",
		fmt.Sprintf("Could not read the account of the API key's user: the API at %s has no GET /api/v1/account (it "+
			"answered \"Resource not found.\"), as older builds of the application and some brands do not. The "+
			"analytics_account data source needs it: upgrade the installation to a build that serves it, or remove "+
			"the data source.", baseURL))
}

// addWebsitesNotCounted reports a list answer without a total.
func addWebsitesNotCounted(diags *diag.Diagnostics) {
	diags.AddError("Websites Not Counted",
		"Could not count the websites of the API key's user: the server's list answer has no meta.total. Check that "+
			"base_url points at the analytics installation itself and not at a proxy that rewrites its answers.")
}

// addEmailReportsOffWarning warns that e-mail reports are asked for on a
// plan without them.
func addEmailReportsOffWarning(diags *diag.Diagnostics, domain types.String, planName string) {
	plan := "The API key's user's plan"
	if planName != "" {
		plan = fmt.Sprintf("The API key's user's plan (%q)", planName)
	}
	diags.AddAttributeWarning(path.Root("email_reports"), "E-mail Reports Not in the Plan",
		fmt.Sprintf("%s has no e-mail reports (its email_reports feature is off). At apply the server stores "+
			"email_reports = true for %s, but it never sends a report. Set email_reports = false, or ask "+
			"the installation's administrator for a plan with e-mail reports.", plan, plannedWebsite(domain)))
}

// addEmailReportsNotChecked warns that e-mail reports switched on could not
// be checked against the plan: GET /account failed (err).
func addEmailReportsNotChecked(diags *diag.Diagnostics, domain types.String, err error) {
	diags.AddAttributeWarning(path.Root("email_reports"), "E-mail Reports Not Checked",
		fmt.Sprintf("Could not check whether the API key's user's plan sends e-mail reports for %s: %s. At apply the "+
			"server stores email_reports = true whatever the plan says, and sends reports only if the plan has them. "+
			"The plan goes on; to check, plan again once the server answers, or read the plan's email_reports "+
			"feature in the application's web interface.", plannedWebsite(domain), strings.TrimRight(err.Error(), ".")))
}
