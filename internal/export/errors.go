package export

import (
	"errors"
	"net/http"
	"strings"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	"gocloud.dev/gcerrors"
)

// The errors of a store: why an object store refused or failed an export
// (the provider's messages name the cause and what to do about it). The
// store's errors name the request and the store's answer, never a key.

// StoreCause is why an object store refused or failed an export.
type StoreCause int

// Why an object store refused or failed an export.
const (
	CauseFailed             StoreCause = iota // anything else: unreachable, full, ...
	CauseNoCredentials                        // no credentials found in the chain
	CauseRefusedCredentials                   // the store refused them
	CauseNoBucket                             // the bucket does not exist
	CauseWrongRegion                          // the bucket is in another region than the request's
)

// storeCode is the error code of an object store's answer, or "".
func storeCode(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return ""
}

// Cause classifies an object store's error, for a message that names the
// cause and what to do.
func Cause(err error) StoreCause {
	switch storeCode(err) {
	case "NoSuchBucket":
		return CauseNoBucket
	case "AuthorizationHeaderMalformed", "PermanentRedirect", "IllegalLocationConstraintException",
		"AuthorizationQueryParametersError", "InvalidRegion":
		// S3 answers a request signed for another region than the
		// bucket's so (the message names the region it expects).
		return CauseWrongRegion
	case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken",
		"TokenRefreshRequired", "AllAccessDisabled", "InvalidClientTokenId":
		return CauseRefusedCredentials
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusMovedPermanently {
		return CauseWrongRegion // a HEAD or a body-less redirect to the bucket's region
	}
	msg := err.Error()
	for _, s := range []string{"get identity", "retrieve credentials", "refresh cached credentials"} {
		if strings.Contains(msg, s) {
			return CauseNoCredentials
		}
	}
	switch gcerrors.Code(err) {
	case gcerrors.PermissionDenied:
		return CauseRefusedCredentials
	}
	return CauseFailed
}
