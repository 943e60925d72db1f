package provider

import (
	"context"
	"fmt"
	"math"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// numericID matches a website id as the API knows it.
var numericID = regexp.MustCompile(`^[1-9][0-9]*$`)

// isWebsiteID reports whether s is a website id as the API knows it: a
// positive whole number without sign, spaces or leading zeros, that fits an
// int64.
func isWebsiteID(s string) bool {
	if !numericID.MatchString(s) {
		return false
	}
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// stringCheck is a plan-time string validator made of a function that says
// why a value is refused, as a sentence naming the attribute (path) and the
// fix, or "" when the value is accepted.
type stringCheck struct {
	description string
	summary     string
	problem     func(attr path.Path, value string) string
	// notice, if set, says why an accepted value deserves a warning, its
	// summary and detail; a value it warns about is not refused.
	notice func(value string) (string, string)
	quiet  bool // a value notice names is accepted without a warning
}

func (v stringCheck) Description(context.Context) string { return v.description }

func (v stringCheck) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if v.notice != nil {
		if summary, n := v.notice(req.ConfigValue.ValueString()); n != "" {
			if !v.quiet {
				resp.Diagnostics.AddAttributeWarning(req.Path, summary, n)
			}
			return
		}
	}
	if p := v.problem(req.Path, req.ConfigValue.ValueString()); p != "" {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary, p)
	}
}

// domainValidator refuses, at plan time, domains the server would refuse or
// rewrite, or that would record no pageview; it only warns about a domain
// an existing website can have that way (Unicode, a trailing dot: see
// storedOnlyDomain), which the website resource refuses for a new website.
func domainValidator() validator.String { return domainCheck() }

// domainCheck is domainValidator's check, which websiteDomainValidator
// changes.
func domainCheck() stringCheck {
	return stringCheck{
		description: "must be a host name or IPv4 address in the server's canonical form",
		summary:     "Invalid Domain",
		problem:     func(_ path.Path, d string) string { return domainProblem(d) },
		notice:      storedOnlyNotice,
	}
}

// websiteDomainValidator is domainValidator for analytics_website, which
// says itself, at plan time, what such a domain means: an error for a new
// website, a warning for one in the state (checkStoredOnlyDomain).
func websiteDomainValidator() validator.String {
	v := domainCheck()
	v.quiet = true
	return v
}

// setCheck is a plan-time validator of a set of strings: a null entry,
// which Terraform accepts in a set of strings but the API cannot be sent,
// is refused, and check adds the errors of the known entries.
type setCheck struct {
	description string
	attr        string // named in messages
	summary     string // of the error for a null entry
	check       func(entries []string, at path.Path, diags *diag.Diagnostics)
}

func (v setCheck) Description(context.Context) string { return v.description }

func (v setCheck) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v setCheck) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var entries []string
	hasNull := false
	for _, e := range req.ConfigValue.Elements() {
		hasNull = hasNull || e.IsNull()
		if s, ok := e.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			entries = append(entries, s.ValueString())
		}
	}
	if hasNull {
		resp.Diagnostics.AddAttributeError(req.Path, v.summary,
			"In "+v.attr+", an entry is null; remove it (compact() drops null entries from a list).")
	}
	v.check(entries, req.Path, &resp.Diagnostics)
}

// excludeIPsValidator checks that no entry is empty or holds a line break
// (no read returns one), and that no two addresses or ranges are the same
// in other spellings. Whether each entry is an address or range is decided
// at plan time (checkInertIPs): an entry that is none is refused unless the
// server holds it already.
var excludeIPsValidator = setCheck{
	description: "each entry must be an IPv4 or IPv6 address or a CIDR range, listed once",
	attr:        "exclude_ips",
	summary:     "Invalid IP Exclusion",
	check: func(entries []string, at path.Path, diags *diag.Diagnostics) {
		seen := map[string]string{}
		for _, s := range entries {
			norm, problem := normalizeIPEntry(s)
			if problem != "" {
				if s == "" || strings.ContainsAny(s, "\n\r") {
					diags.AddAttributeError(at, "Invalid IP Exclusion", "In exclude_ips, "+problem+".")
				}
				continue
			}
			if prev, dup := seen[norm]; dup {
				diags.AddAttributeError(at, "Duplicate IP Exclusion",
					fmt.Sprintf("In exclude_ips, %q and %q denote the same address or range (%s); keep only one.", prev, s, norm))
				continue
			}
			seen[norm] = s
		}
	},
}

// foldIPEntries returns entries, as read from the server, without those
// that excludeIPsValidator calls duplicates of an earlier one (the same
// address or range in another spelling, normalizeIPEntry), keeping the
// first spelling; an entry the validator refuses is folded only with the
// same text. The web interface stores such a list as typed; a state or a
// generated configuration that held both would fail every plan, and the
// application matches either entry alike, so nothing is lost.
func foldIPEntries(entries []string) []string {
	out := make([]string, 0, len(entries))
	seen := make(map[string]bool, len(entries))
	for _, s := range entries {
		key := s
		if norm, problem := normalizeIPEntry(s); problem == "" {
			key = norm // an entry that parses is never the text of one that does not
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, s)
	}
	return out
}

// normalizeIPEntry returns the canonical text of an address or range, or an
// explanation of why the entry is not one.
func normalizeIPEntry(s string) (string, string) {
	switch {
	case s == "":
		return "", "an entry is empty; remove it"
	case strings.ContainsFunc(s, unicode.IsSpace):
		return "", fmt.Sprintf("%q contains white space or a line break; give one address or range per entry", s)
	}
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return "", fmt.Sprintf("%q is not a valid CIDR range (e.g. \"10.0.0.0/8\" or \"2001:db8::/32\")", s)
		}
		return p.Masked().String(), ""
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return "", fmt.Sprintf("%q is not an IPv4 or IPv6 address or CIDR range (e.g. \"203.0.113.7\", "+
			"\"2001:db8::1\" or \"10.0.0.0/8\"); the server would silently never match it", s)
	}
	return a.String(), ""
}

// excludeParamsValidator checks query parameter names.
var excludeParamsValidator = setCheck{
	description: "each entry must be a query parameter name, or \"&\" alone for every parameter",
	attr:        "exclude_params",
	summary:     "Invalid Query Parameter Exclusion",
	check: func(entries []string, at path.Path, diags *diag.Diagnostics) {
		for _, s := range entries {
			if p := paramProblem(s); p != "" {
				diags.AddAttributeError(at, "Invalid Query Parameter Exclusion", "In exclude_params, "+p+".")
			}
		}
		if len(entries) > 1 && slices.Contains(entries, "&") {
			diags.AddAttributeError(at, "Conflicting Query Parameter Exclusions",
				"In exclude_params, \"&\" already excludes every query parameter; remove the other entries or the \"&\".")
		}
	},
}

func paramProblem(s string) string {
	switch {
	case s == "":
		return "an entry is empty; remove it"
	case s == "&":
		return ""
	case strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }):
		return fmt.Sprintf("%q contains white space or a line break; give one parameter name per entry", s)
	case s != laravel.Trim(s):
		return fmt.Sprintf("%q begins or ends with an invisible character that the server trims (U+FEFF, U+200B or "+
			"U+180E), so it would exclude another parameter; remove that character from the entry", s)
	case strings.ContainsAny(s, "&=?#"):
		return fmt.Sprintf("%q is not a bare query parameter name (it contains one of & = ? #); give only the name, e.g. \"utm_source\"", s)
	}
	return ""
}

// maxPasswordLength is the server's limit on password (max:128).
const maxPasswordLength = 128

// passwordValidator refuses passwords the server would refuse (1..128
// characters), blank ones (which its "required" rule treats as missing) and
// "0" (stored, but read back as no password: PHP truthiness). The value is a secret: messages give its
// length, never the value.
func passwordValidator() validator.String {
	return stringCheck{
		description: "must be 1 to 128 characters, not blank and not \"0\"",
		summary:     "Invalid Password",
		problem: func(attr path.Path, pw string) string {
			switch n := utf8.RuneCountInString(pw); {
			case strings.TrimSpace(strings.Trim(pw, laravel.PHPTrimChars)) == "": // "required" trims with PHP's trim()
				return fmt.Sprintf("The %s is empty or only white space. Set a real password, or remove the attribute "+
					"and use a privacy other than \"password\".", attr)
			case pw == "0":
				return fmt.Sprintf("The %s \"0\" is stored, but the server treats it as no password at all (it reads "+
					"back as \"no password set\" and does not protect the page). Choose another password.", attr)
			case n > maxPasswordLength:
				return fmt.Sprintf("The %s is %d characters long; the server accepts at most %d. Use a shorter password.",
					attr, n, maxPasswordLength)
			}
			return ""
		},
	}
}

// websiteIDValidator accepts a website id: a positive whole number.
func websiteIDValidator() validator.String {
	return stringCheck{
		description: "must be a website's numeric id, a positive whole number",
		summary:     "Invalid Website ID",
		problem: func(attr path.Path, id string) string {
			if isWebsiteID(id) {
				return ""
			}
			if numericID.MatchString(id) {
				return fmt.Sprintf("%s = %q is too large for a website id (at most %d). Check the id (the number in the "+
					"website's URL in the web interface).", attr, id, int64(math.MaxInt64))
			}
			return fmt.Sprintf("%s = %q is not a website id: ids are positive whole numbers without signs, spaces or "+
				"leading zeros, e.g. \"12\" (the number in the website's URL in the web interface). To look a "+
				"website up by name, set domain instead.", attr, id)
		},
	}
}

// exportDirectoryValidator refuses a directory that cannot name one: empty
// or only white space.
func exportDirectoryValidator() validator.String {
	return stringCheck{
		description: "must be a path to a directory",
		summary:     "Invalid Export Directory",
		problem: func(attr path.Path, v string) string {
			if strings.TrimSpace(v) != "" {
				return ""
			}
			return fmt.Sprintf("%s is empty. Set it to the directory the export's folder is created in, e.g. "+
				"\"${path.root}/exports\".", attr)
		},
	}
}

// exportRange is the range of days an export reads: from and to as
// configured (YYYY-MM-DD, dateValidator's), or, left out ("" each), the first
// and the last day there can be statistics for. A to before that first day
// is also the default from (dates before exportFirstDate are valid): the
// range is never inverted. whole: neither was given.
func exportRange(from, to string) (string, string, bool) {
	whole := from == "" && to == ""
	if from == "" {
		from = min(exportFirstDate, to)
		if to == "" {
			from = exportFirstDate
		}
	}
	if to == "" {
		to = max(exportLastDate, from)
	}
	return from, to, whole
}

// dateRangeProblem says why from and to (YYYY-MM-DD, either may be empty:
// unbounded) are not a range, or "" when they are.
func dateRangeProblem(from, to string) string {
	if from == "" || to == "" || from <= to {
		return ""
	}
	return fmt.Sprintf("from = %q is after to = %q: the range would hold no day. Swap them, or leave one out to "+
		"export from the first day or up to the last.", from, to)
}

// storedStringValidator refuses, at plan time, a value of a string column
// that the server would store otherwise than sent: "" (stored as NULL),
// white space it trims at either end (laravel.Trim), or more than maxLen
// characters (its rule max:maxLen).
func storedStringValidator(maxLen int) validator.String {
	return stringCheck{
		description: fmt.Sprintf("must be 1 to %d characters, without white space at either end", maxLen),
		summary:     "Invalid Value",
		problem: func(attr path.Path, s string) string {
			switch n := utf8.RuneCountInString(s); {
			case s == "":
				return fmt.Sprintf("The %s is empty, which the server stores as none. Remove the attribute instead.", attr)
			case s != laravel.Trim(s):
				return fmt.Sprintf("The %s has white space at an end, which the server removes. Use %q.", attr, laravel.Trim(s))
			case n > maxLen:
				return fmt.Sprintf("The %s is %d characters long; the server accepts at most %d.", attr, n, maxLen)
			}
			return ""
		},
	}
}
