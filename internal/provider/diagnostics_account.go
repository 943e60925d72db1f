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

// addWebsiteLimitWarning warns that a create would pass the plan's limit:
// limit, the websites held, and the creates planned so far (this one
// included).
func addWebsiteLimitWarning(diags *diag.Diagnostics, domain types.String, limit, have, planned int) {
	diags.AddAttributeWarning(path.Root("domain"), "Website Limit Would Be Exceeded",
		fmt.Sprintf("Creating %s would make %d websites, but the API key's user's plan allows %d. The user "+
			"holds %s now, and this plan creates %d, counting this one. At apply, the server will refuse "+
			"every create past the limit with \"You created too many websites.\" (deletes in the same plan may run "+
			"after the creates). Before applying, delete websites you no longer need, or ask the installation's "+
			"administrator for a larger plan."+hardStopHint, plannedWebsite(domain), have+planned, limit, countWebsites(have), planned))
}

// addReplacementAtLimitWarning warns that a replacement of a website whose
// user is at the plan's limit fails if it creates before it deletes, and,
// over the limit (a plan made smaller since), fails in either order, after
// the delete when that comes first.
func addReplacementAtLimitWarning(diags *diag.Diagnostics, from string, to types.String, limit, have, planned int) {
	change := fmt.Sprintf("Changing the domain from %q to %s replaces the website", from, plannedDomain(to))
	if have > limit {
		diags.AddAttributeWarning(path.Root("domain"), "Replacement at the Website Limit",
			fmt.Sprintf("%s, but the API key's user holds %d websites, more than the %d the plan allows (the plan "+
				"was made smaller, or websites were created past it), so the server will refuse the new website with "+
				"\"You created too many websites.\" in either order. Without create_before_destroy, Terraform deletes "+
				"the old website, with its statistics, and then the create fails; with lifecycle { "+
				"create_before_destroy = true } the create fails and the old website stays. Before applying, delete "+
				"%d websites you no longer need or move the user to a larger plan.", change, have, limit, have-limit+1))
		return
	}
	held := fmt.Sprintf("The API key's user holds %s, and the plan allows %d.", countWebsites(have), limit)
	if planned > 0 {
		held = fmt.Sprintf("The API key's user holds %s, this plan creates %d more before this one, and "+
			"the plan allows %d.", countWebsites(have), planned, limit)
	}
	diags.AddAttributeWarning(path.Root("domain"), "Replacement at the Website Limit",
		fmt.Sprintf("%s. %s With lifecycle { create_before_destroy = true } (which -replace also follows), "+
			"Terraform creates the new website before it deletes the old one, so the server will refuse the create "+
			"with \"You created too many websites.\": the apply fails and the old website stays. Without "+
			"create_before_destroy, Terraform deletes the old website first, and the new one fits. Before applying, "+
			"delete a website you no longer need, move the user to a larger plan, or remove create_before_destroy "+
			"for this change.", change, held))
}

// addKeptReplacementOverLimitWarning warns that the new website of a
// replacement that keeps the old one (skip_destroy) would pass the plan's
// limit.
func addKeptReplacementOverLimitWarning(diags *diag.Diagnostics, from string, to types.String, limit, have, planned int) {
	diags.AddAttributeWarning(path.Root("domain"), "Website Limit Would Be Exceeded",
		fmt.Sprintf("Changing the domain from %q to %s creates a new website, and since skip_destroy is true the old "+
			"website stays on the server: that would make %d websites, but the API key's user's plan allows %d (the "+
			"user holds %s now, and this plan creates %d, counting this one). At apply, the server will refuse "+
			"the create with \"You created too many websites.\", in whichever order Terraform replaces it. Delete a "+
			"website you no longer need or ask the installation's administrator for a larger plan before applying, "+
			"or apply skip_destroy = false first to delete the old website, with its statistics."+hardStopHint,
			from, plannedDomain(to), have+planned, limit, countWebsites(have), planned))
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
