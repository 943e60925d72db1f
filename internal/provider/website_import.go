package provider

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/net/idna"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// ImportState accepts a numeric id or an exact domain, or (Terraform 1.12
// and later) an identity with the id. The ID is read first, before anything
// is asked of the API, and no message repeats it as given: it may be a URL
// whose user information holds a password. The website is then looked up
// here, so that a wrong id, domain or API key gets an error that says
// which, and the key's user is remembered as the website's owner.
func (r *websiteResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	raw := strings.TrimSpace(req.ID)
	if raw == "" && req.Identity != nil {
		var ident websiteIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if resp.Diagnostics.HasError() {
			return
		}
		raw = strings.TrimSpace(ident.ID.ValueString())
		if !isWebsiteID(raw) {
			resp.Diagnostics.AddAttributeError(path.Root("id"), "Invalid Import Identity",
				"The identity's id must be the website's numeric id, a positive whole number without sign, spaces or "+
					"leading zeros, e.g. \"12\" (the number in the website's URL in the web interface); the value "+
					"given is not one (not repeated here, as an ID may hold a password).")
			return
		}
	}
	id, problem := importTarget(raw)
	if problem != "" {
		resp.Diagnostics.AddError("Invalid Import ID", problem)
		return
	}
	// From here on, raw is a website id or a domain in the form the server
	// stores: the parse proved it holds no user information.
	what := fmt.Sprintf("the website %q", raw)
	if id > 0 {
		what = fmt.Sprintf("the website with id %d", id)
	}
	if dataClient(r.data, &resp.Diagnostics) == nil || resp.Diagnostics.HasError() {
		return
	}
	owner, err := r.data.keyOwner(ctx)
	if err != nil {
		addAPIErrorAbout(&resp.Diagnostics, "import", what, err)
		return
	}
	var w *client.Website
	if id > 0 {
		w, err = r.data.websites.Read(ctx, id)
		if errors.Is(err, client.ErrNotFound) {
			resp.Diagnostics.AddError("Website Not Found",
				fmt.Sprintf("No website with id %d belongs to %s. Check the id (shown in the web interface's URL of "+
					"the website) and that api_key is the key of the website's owner.", id, keyUser(owner)))
			return
		}
	} else {
		w, err = r.data.websites.FindByDomain(ctx, raw) // one list sweep for every import of the run
		if errors.Is(err, client.ErrNotFound) {
			resp.Diagnostics.AddError("Website Not Found",
				fmt.Sprintf("No website with the domain %q belongs to %s. Check the spelling%s, or import by numeric "+
					"id (shown in the web interface's URL of the website).", raw, keyUser(owner), otherFormHint(raw)))
			return
		}
	}
	if err != nil {
		addAPIErrorAbout(&resp.Diagnostics, "import", what, err)
		return
	}
	how := "id"
	if id == 0 {
		how = "domain"
	}
	tflog.Info(ctx, "import: found website by "+how, map[string]any{"id": w.ID, "domain": w.Domain})
	if id > 0 {
		addImportedByID(&resp.Diagnostics, w)
	}
	stateID := types.StringValue(strconv.FormatInt(w.ID, 10))
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), stateID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("skip_destroy"), types.BoolValue(false))...)
	remember(ctx, resp.Private, owner, &resp.Diagnostics)
	setIdentity(ctx, resp.Identity, stateID, &resp.Diagnostics)
}

// otherFormHint names the other forms a website's domain may be stored in
// when a lookup by domain finds none ("" when there is none): the form a
// browser sends of a domain stored in Unicode, with a trailing dot or
// otherwise as written (when the provider accepts that form), and, of a
// valid domain, its trailing-dot form and the Unicode form of an xn-- one.
func otherFormHint(domain string) string {
	var forms []string
	if b, ok := storedOnlyDomain(domain); ok {
		if a := advisedDomain(b); a != "" && a != domain {
			forms = append(forms, a)
		}
	} else if domainProblem(domain) == "" {
		if strings.Contains(domain, "xn--") {
			if u, err := idna.ToUnicode(domain); err == nil && u != domain {
				if _, ok := storedOnlyDomain(u); ok {
					forms = append(forms, u)
				}
			}
		}
		forms = append(forms, domain+".")
	}
	if len(forms) == 0 {
		return ""
	}
	quoted := make([]string, len(forms))
	for i, f := range forms {
		quoted[i] = strconv.Quote(f)
	}
	return " (a website made in the web interface may be stored as " + strings.Join(quoted, " or ") + ")"
}

// storedHostOf is the host of a URL or host:port (no "@": importTarget
// refuses it first) in the form the server stores, after its trimming and
// rewriting, when that form is one storedOnlyDomain takes, else "".
func storedHostOf(raw string) string {
	d := canonicalDomain(laravel.Trim(raw))
	if i := strings.IndexAny(d, "/?#"); i >= 0 {
		d = d[:i]
	}
	if host, _, ok := strings.Cut(d, ":"); ok && !strings.Contains(d[len(host)+1:], ":") {
		d = host
	}
	if _, ok := storedOnlyDomain(d); ok {
		return d
	}
	return ""
}

// importTakes begins every refusal of an import ID.
const importTakes = "Import takes the website's numeric id or its exact domain"

// importNotRepeated ends the refusals of an import ID.
const importNotRepeated = " The ID is not repeated here, as it could hold a password."

// signedNumber is what reads as a number, to be told apart from a domain.
var signedNumber = regexp.MustCompile(`^[+-]?[0-9]+$`)

// importTarget reads an import ID (trimmed): a website's id (a positive
// whole number written as the data sources, the action and the identity
// take it, returned) or, else, its exact domain (0 returned), or why it is
// neither. A refusal never repeats the ID or a part of it: only what the
// parse rebuilt (a number, a domain's canonical form from an ID without
// "@").
func importTarget(raw string) (int64, string) {
	switch {
	case raw == "":
		return 0, importTakes + "; the ID is empty. Give the id, e.g. terraform import analytics_website.NAME 12, or " +
			"the domain, e.g. example.com."
	case len(raw) > maxDomainLength:
		return 0, fmt.Sprintf("%s; the ID is %d bytes long, longer than any (an id has at most 19 digits, a domain "+
			"at most %d characters).%s", importTakes, len(raw), maxDomainLength, importNotRepeated)
	case !utf8.ValidString(raw) || strings.ContainsFunc(raw, unicode.IsControl):
		return 0, importTakes + "; the ID holds a control character (such as a line break or NUL) or bytes that " +
			"are not UTF-8. Remove them." + importNotRepeated
	case strings.Contains(raw, "@"):
		return 0, importTakes + "; the ID holds \"@\", as a URL with user information (a name and password before " +
			"\"@\") does. Give the website's domain alone, e.g. example.com, or its numeric id, and treat the password " +
			"as exposed if the command was shared." + importNotRepeated
	case signedNumber.MatchString(raw):
		return importID(raw)
	}
	if _, storedOnly := storedOnlyDomain(raw); storedOnly || domainProblem(raw) == "" {
		return 0, "" // a website in Unicode or with a trailing dot is found by its domain as stored
	}
	if c := canonicalDomain(raw); c != raw {
		if _, storedOnly := storedOnlyDomain(c); storedOnly {
			return 0, fmt.Sprintf("%s, as the server stores it: lower case, without scheme or \"www.\". Import by %q.",
				importTakes, c)
		}
	}
	if c, p := canonicalDomainOf(raw); p == "" {
		also := ""
		if stored := storedHostOf(raw); stored != "" && stored != c {
			also = fmt.Sprintf(" A website stored in Unicode or with a trailing dot is imported by %q.", stored)
		}
		return 0, fmt.Sprintf("%s, as the server stores it: lower case, without scheme, \"www.\", port, path or "+
			"trailing dot. Import by %q.%s", importTakes, c, also)
	}
	return 0, importTakes + "; the ID is neither a positive whole number nor a host name the server accepts " +
		"(dot-separated labels of letters, digits and hyphens, e.g. www2.example.com, or an IPv4 address). Check " +
		"it, or import by the numeric id (shown in the web interface's URL of the website)." + importNotRepeated
}

// importID reads an import ID made of digits and a sign: a website id
// only when written as the data sources and the identity take it.
func importID(raw string) (int64, string) {
	if isWebsiteID(raw) {
		id, _ := strconv.ParseInt(raw, 10, 64) // isWebsiteID parsed it
		return id, ""
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Sprintf("%s; the ID is too large for an id (at most %d). Check the id (shown in the web "+
			"interface's URL of the website).", importTakes, int64(math.MaxInt64))
	case err == nil && n > 0:
		return 0, fmt.Sprintf("%s; ids are positive whole numbers written without sign or leading zeros: import by %d.",
			importTakes, n)
	}
	return 0, importTakes + "; ids are positive whole numbers (1 or more), e.g. 12: check the id (shown in the web " +
		"interface's URL of the website)."
}

// keyUser names the API key's user for messages.
func keyUser(owner *websiteOwner) string {
	if owner == nil {
		return "this API key's user"
	}
	return "this API key's user, " + owner.String()
}
