package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/export"
)

// The diagnostics of the statistics export (the
// analytics_website_statistics_export action): the website not found, a
// statistics name not read, the time limit, where the files go (a folder
// or a bucket, internal/export, whose errors say why a store refused), what
// a failed export left behind, and the delete refused after a failed
// export. Each names the destination and the cause, never a credential.

// exportTarget is where an export goes: the attribute that says it and
// its value as configured.
type exportTarget struct {
	attr  string // "directory" or "destination"
	value string
}

// addExportWriteError reports that the export of site (`the website
// "shop.example.com"`, or `the website with id 3` before it was found)
// could not be written to target: the place is taken, the credentials are
// missing or refused, the bucket is missing, or a write failed.
//
// left ends the message: what the failed export left behind
// (exportNothingLeft, or exportLeftBehind of the cleanup's error).
func addExportWriteError(diags *diag.Diagnostics, site string, target exportTarget, err error, left string) {
	at := path.Root(target.attr)
	where := fmt.Sprintf("%s = %q", target.attr, target.value)
	if errors.Is(err, errInvalidDestination) {
		diags.AddAttributeError(at, "Invalid Export Destination", strings.TrimPrefix(err.Error(), errInvalidDestination.Error()+": "))
		return
	}
	if errors.Is(err, export.ErrExists) {
		diags.AddAttributeError(at, "Statistics Export Folder Exists",
			fmt.Sprintf("Could not export the statistics of %s: %s. An export never writes into or over "+
				"an earlier one, and nothing was changed there. Invoke the action again (each export's folder has a "+
				"name of its own, the time and a random part), or set another %s.", site, err, target.attr))
		return
	}
	bucket := strings.Contains(target.value, "://") && !strings.HasPrefix(target.value, "file:")
	if !bucket {
		diags.AddAttributeError(at, "Unable to Write the Statistics Export",
			fmt.Sprintf("Could not write the statistics export of %s under %s: %s. Check that "+
				"the directory can be created, that the user running Terraform may write to it, and that its disk has "+
				"free space. %s", site, where, err, left))
		return
	}
	switch export.Cause(err) {
	case export.CauseNoCredentials:
		diags.AddAttributeError(at, "No Credentials for the Statistics Export",
			fmt.Sprintf("Could not export the statistics of %s to %s: no credentials for the store were found (%s). "+
				"The provider never takes them from the configuration: it reads them as the AWS CLI does, from "+
				"AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN), AWS_PROFILE and the shared "+
				"config and credentials files, web identity (AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN), or the "+
				"role of the container or instance. Give the process that runs Terraform one of these. %s",
				site, where, err, left))
	case export.CauseRefusedCredentials:
		diags.AddAttributeError(at, "Statistics Export Refused by the Store",
			fmt.Sprintf("Could not export the statistics of %s to %s: the store refused the credentials the "+
				"provider found (%s). Check that they are current (a session token expires) and belong to the "+
				"store (an endpoint's own keys are not AWS keys), and that they may list, put and delete objects "+
				"under the prefix (s3:ListBucket on the bucket, s3:PutObject and s3:DeleteObject on the prefix). %s",
				site, where, err, left))
	case export.CauseWrongRegion:
		diags.AddAttributeError(at, "Statistics Export Bucket in Another Region",
			fmt.Sprintf("Could not export the statistics of %s to %s: the store answered that the request was made "+
				"for another region than the bucket's (%s). Set region=... in the destination (or AWS_REGION) to the "+
				"bucket's region, which the store's answer names; a self-hosted store's region is in its own settings. %s",
				site, where, err, left))
	case export.CauseNoBucket:
		diags.AddAttributeError(at, "Statistics Export Bucket Not Found",
			fmt.Sprintf("Could not export the statistics of %s to %s: the bucket does not exist (%s). The "+
				"export never creates buckets: create it (with its retention and access rules) or fix the name, "+
				"the endpoint or the region. %s", site, where, err, left))
	default:
		diags.AddAttributeError(at, "Unable to Write the Statistics Export",
			fmt.Sprintf("Could not write the statistics export of %s to %s: %s. Check that the store answers at "+
				"its endpoint, that the region is right (region=... in the URL, or AWS_REGION), and try again. %s",
				site, where, err, left))
	}
}

// exportSite names the website of an export in messages.
func exportSite(domain, id string) string {
	if domain == "" {
		return fmt.Sprintf("the website with id %s", id)
	}
	return fmt.Sprintf("the website %q", domain)
}

// exportNothingLeft ends every message of a failed export.
const exportNothingLeft = "No export was left behind: the files written so far were removed. The website and its " +
	"statistics on the server are untouched."

// exportLeftBehind ends the message of a failed export whose cleanup
// failed too: what may remain, and where (err is the cleanup's error).
func exportLeftBehind(err error) string {
	var ce *export.CleanupError
	if errors.As(err, &ce) {
		return fmt.Sprintf("The export's files could not all be removed: %s may remain in %s (%v). They are what "+
			"a failed export wrote, not a complete export: delete them by hand. The website and its statistics on "+
			"the server are untouched.", strings.Join(ce.Left, ", "), ce.Where, ce.Err)
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
