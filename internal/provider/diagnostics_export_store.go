package provider

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"gocloud.dev/gcerrors"
)

// The diagnostics of where an export is written: a folder or a bucket
// (statistics_export_folder.go, statistics_export_bucket.go). Each names
// the destination and the cause, never a credential: the store's errors
// name the request and the store's answer, never a key.

// Why an object store refused or failed an export.
const (
	storeFailed             = iota // anything else: unreachable, full, ...
	storeNoCredentials             // no credentials found in the chain
	storeRefusedCredentials        // the store refused them
	storeNoBucket                  // the bucket does not exist
	storeWrongRegion               // the bucket is in another region than the request's
)

// storeCode is the error code of an object store's answer, or "".
func storeCode(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return ""
}

// storeCause classifies an object store's error.
func storeCause(err error) int {
	switch storeCode(err) {
	case "NoSuchBucket":
		return storeNoBucket
	case "AuthorizationHeaderMalformed", "PermanentRedirect", "IllegalLocationConstraintException",
		"AuthorizationQueryParametersError", "InvalidRegion":
		// S3 answers a request signed for another region than the
		// bucket's so (the message names the region it expects).
		return storeWrongRegion
	case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken",
		"TokenRefreshRequired", "AllAccessDisabled", "InvalidClientTokenId":
		return storeRefusedCredentials
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusMovedPermanently {
		return storeWrongRegion // a HEAD or a body-less redirect to the bucket's region
	}
	msg := err.Error()
	for _, s := range []string{"get identity", "retrieve credentials", "refresh cached credentials"} {
		if strings.Contains(msg, s) {
			return storeNoCredentials
		}
	}
	switch gcerrors.Code(err) {
	case gcerrors.PermissionDenied:
		return storeRefusedCredentials
	}
	return storeFailed
}

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
	if errors.Is(err, errExportExists) {
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
	switch storeCause(err) {
	case storeNoCredentials:
		diags.AddAttributeError(at, "No Credentials for the Statistics Export",
			fmt.Sprintf("Could not export the statistics of %s to %s: no credentials for the store were found (%s). "+
				"The provider never takes them from the configuration: it reads them as the AWS CLI does, from "+
				"AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN), AWS_PROFILE and the shared "+
				"config and credentials files, web identity (AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN), or the "+
				"role of the container or instance. Give the process that runs Terraform one of these. %s",
				site, where, err, left))
	case storeRefusedCredentials:
		diags.AddAttributeError(at, "Statistics Export Refused by the Store",
			fmt.Sprintf("Could not export the statistics of %s to %s: the store refused the credentials the "+
				"provider found (%s). Check that they are current (a session token expires) and belong to the "+
				"store (an endpoint's own keys are not AWS keys), and that they may list, put and delete objects "+
				"under the prefix (s3:ListBucket on the bucket, s3:PutObject and s3:DeleteObject on the prefix). %s",
				site, where, err, left))
	case storeWrongRegion:
		diags.AddAttributeError(at, "Statistics Export Bucket in Another Region",
			fmt.Sprintf("Could not export the statistics of %s to %s: the store answered that the request was made "+
				"for another region than the bucket's (%s). Set region=... in the destination (or AWS_REGION) to the "+
				"bucket's region, which the store's answer names; a self-hosted store's region is in its own settings. %s",
				site, where, err, left))
	case storeNoBucket:
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
