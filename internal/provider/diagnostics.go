package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

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
	if domain != "" {
		what = fmt.Sprintf("the website %q", domain)
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
				fmt.Sprintf("Could not %s %s: %s. Check base_url and the network path to the server.", op, what, err))
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
