package export

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws/arn"

	"github.com/analytics-tf/terraform-provider-analytics/internal/userinfo"
)

// The settings of an s3:// destination: its query, read strictly
// (url.ParseQuery, whose error refuses the destination: a pair Go cannot
// read is never dropped) and every value checked here, at plan time, as
// gocloud.dev/blob/s3blob v0.47.0 (and gocloud.dev/aws, which reads most of
// them) and the AWS SDK would take it at apply. What cannot be checked
// without the machine's credentials is said in each setting's check.

// s3Setting is the check of one setting's value: a problem ("" when
// fine), without the value, which is never repeated.
type s3Setting func(v string) string

var boolSetting s3Setting = func(v string) string {
	if _, err := strconv.ParseBool(v); err != nil {
		return "must be true or false"
	}
	return ""
}

// regionPattern is a region as the SDK builds a host name from it: a DNS
// label (Amazon's are like eu-west-1; a self-hosted store's may be any
// label, such as garage).
var regionPattern = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$`)

// sseTypes are the server-side encryption types an upload may ask for
// (the SDK's types.ServerSideEncryption less those S3 only reports).
var sseTypes = []string{"AES256", "aws:kms", "aws:kms:dsse"}

// checksumModes are the values of request_checksum_calculation and
// response_checksum_validation (gocloud.dev/aws compares them ignoring
// case).
var checksumModes = []string{"when_supported", "when_required"}

// s3Settings are the query parameters an s3:// destination accepts (those
// of gocloud.dev/blob/s3blob v0.47.0 that say where and how to reach the
// store), each with its check.
var s3Settings = map[string]s3Setting{
	// A self-hosted store's base URL, e.g. http://127.0.0.1:8333.
	"endpoint": func(v string) string {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || userinfo.Suspect(v) ||
			u.RawQuery != "" || u.Fragment != "" {
			return "must be the store's base URL, http://host:port or https://host (without credentials, query or " +
				"fragment), e.g. s3://bucket/prefix?endpoint=https://s3.example.com&region=us-east-1&use_path_style=true"
		}
		return ""
	},
	"region": func(v string) string {
		if !regionPattern.MatchString(v) {
			return "must be a region's name, such as eu-west-1 (letters, digits and hyphens)"
		}
		return ""
	},
	"use_path_style":     boolSetting, // http://host/bucket/key instead of http://bucket.host/key
	"s3ForcePathStyle":   boolSetting, // the same, as older tools spell it
	"disable_https":      boolSetting,
	"hostname_immutable": boolSetting,
	"dualstack":          boolSetting,
	"fips":               boolSetting,
	"accelerate":         boolSetting,
	// A profile of the shared config files. Whether it exists is not
	// checked: the files are read where the export runs, with the
	// credentials, which a plan elsewhere may not have.
	"profile": func(v string) string {
		if strings.IndexFunc(v, func(r rune) bool { return unicode.IsSpace(r) || r == '[' || r == ']' }) >= 0 {
			return "must be a profile's name, without spaces or brackets"
		}
		return ""
	},
	// The ARN of a role to assume with the credentials found. Whether the
	// credentials may assume it is only known at apply.
	"role": func(v string) string {
		a, err := arn.Parse(v)
		if err != nil || a.Service != "iam" || !strings.HasPrefix(a.Resource, "role/") || len(a.Resource) == len("role/") {
			return "must be the ARN of an IAM role, arn:aws:iam::123456789012:role/name"
		}
		return ""
	},
	"ssetype": func(v string) string {
		if !slices.ContainsFunc(sseTypes, func(s string) bool { return strings.EqualFold(s, v) }) {
			return "must be one of " + strings.Join(sseTypes, ", ")
		}
		return ""
	},
	// The KMS key's id, ARN or alias. Whether the key exists and may be
	// used is only known at apply (KMS, with the credentials).
	"kmskeyid": func(v string) string {
		if strings.IndexFunc(v, unicode.IsSpace) >= 0 {
			return "must be a KMS key's id, ARN or alias (alias/name), without spaces"
		}
		return ""
	},
	"request_checksum_calculation": checksumSetting,
	"response_checksum_validation": checksumSetting,
}

var checksumSetting s3Setting = func(v string) string {
	if !slices.ContainsFunc(checksumModes, func(s string) bool { return strings.EqualFold(s, v) }) {
		return "must be when_supported or when_required"
	}
	return ""
}

// droppedByRole are the settings gocloud.dev/aws v0.47.0 ignores when role
// is set: it builds the assumed role's configuration from the credentials
// and the region alone (endpoint, profile and the s3blob settings still
// apply).
var droppedByRole = []string{"dualstack", "fips", "request_checksum_calculation", "response_checksum_validation"}

// settingNamePattern is a setting's name that a refusal may repeat: words
// of small letters, which no generated secret is.
var settingNamePattern = regexp.MustCompile(`^[a-z]{1,20}(_[a-z]{1,20}){0,4}$`)

// parseS3Settings reads and checks the query of an s3:// destination, or
// says what is wrong (after the attribute's name and a colon).
func parseS3Settings(raw string) (url.Values, string) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		// Go's message would repeat a part of the value.
		return nil, "the settings after ? cannot be read: a pair is separated by \";\" instead of \"&\", or holds " +
			"an invalid %-escape. Nothing is dropped: separate the settings with &, and write a % in a value as %25."
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range q {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range names {
		check, known := s3Settings[k]
		if !known {
			return nil, unknownSetting(k)
		}
		switch {
		case len(q[k]) != 1:
			return nil, fmt.Sprintf("the setting %q is given %d times; give it once.", k, len(q[k]))
		case q.Get(k) == "":
			return nil, fmt.Sprintf("the setting %q has no value; give it one or remove it.", k)
		case strings.IndexFunc(q.Get(k), unicode.IsControl) >= 0 || !utf8.ValidString(q.Get(k)):
			return nil, fmt.Sprintf("the setting %q holds a control character once decoded (such as %%00, %%0A or "+
				"%%7F) or a %%-escape that is not UTF-8: remove it (the value is not repeated here, as it could be a "+
				"secret).", k)
		}
		if p := check(q.Get(k)); p != "" {
			return nil, fmt.Sprintf("the setting %q %s (the value is not repeated here, as it could be a secret).", k, p)
		}
	}
	if q.Has("use_path_style") && q.Has("s3ForcePathStyle") {
		return nil, "use_path_style and s3ForcePathStyle are the same setting: give only use_path_style."
	}
	if q.Has("kmskeyid") && !strings.HasPrefix(strings.ToLower(q.Get("ssetype")), "aws:kms") {
		return nil, "kmskeyid needs ssetype=aws:kms (or aws:kms:dsse): S3 refuses a KMS key without KMS encryption."
	}
	if q.Has("role") {
		var dropped []string
		for _, k := range droppedByRole {
			if q.Has(k) {
				dropped = append(dropped, k)
			}
		}
		if len(dropped) > 0 {
			return nil, fmt.Sprintf("role cannot be combined with %s: the store's library builds the assumed role's "+
				"configuration from the credentials and the region alone, and would ignore them without a word. "+
				"Remove them, or remove role and give the process the role's credentials (AWS_PROFILE with a "+
				"role_arn in the shared config file, or web identity).", strings.Join(dropped, ", "))
		}
	}
	return q, ""
}

// unknownSetting refuses a query parameter that is not a setting, naming
// it only when it cannot be a secret.
func unknownSetting(k string) string {
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range s3Settings {
			if !yield(n) {
				return
			}
		}
	})
	list := strings.Join(names, ", ")
	for _, n := range names {
		if strings.EqualFold(n, k) {
			return fmt.Sprintf("a setting is written in other capitals than %q: write it so. The settings: %s.", n, list)
		}
	}
	what := "a query parameter"
	if settingNamePattern.MatchString(k) {
		what = fmt.Sprintf("the query parameter %q", k)
	}
	return fmt.Sprintf("%s is not one an s3:// destination takes (%s). Credentials are never parameters: the "+
		"provider reads them as the AWS CLI does.", what, list)
}
