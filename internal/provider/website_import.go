package provider

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// ImportState accepts a numeric id or an exact domain, or (Terraform 1.12
// and later) an identity with the id. The website is looked up here, so
// that a wrong id, domain or API key gets an error that says which, and the
// key's user is remembered as the website's owner.
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
				fmt.Sprintf("The identity's id must be the website's numeric id, e.g. \"12\", got %q.", raw))
			return
		}
	}
	if dataClient(r.data, &resp.Diagnostics) == nil || resp.Diagnostics.HasError() {
		return
	}
	owner, err := r.data.keyOwner(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", raw, err)
		return
	}
	id, problem := importTarget(raw)
	if problem != "" {
		resp.Diagnostics.AddError("Invalid Import ID", problem)
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
				fmt.Sprintf("No website with the domain %q belongs to %s. Check the spelling, or import by numeric "+
					"id (shown in the web interface's URL of the website).", raw, keyUser(owner)))
			return
		}
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "import", raw, err)
		return
	}
	how := "id"
	if strconv.FormatInt(w.ID, 10) != raw {
		how = "domain"
	}
	tflog.Info(ctx, "import: found website by "+how, map[string]any{"id": w.ID, "domain": w.Domain})
	stateID := types.StringValue(strconv.FormatInt(w.ID, 10))
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), stateID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("skip_destroy"), types.BoolValue(false))...)
	remember(ctx, resp.Private, owner, &resp.Diagnostics)
	setIdentity(ctx, resp.Identity, stateID, &resp.Diagnostics)
}

// importTarget reads an import ID (trimmed): a website's id (a positive
// whole number, returned) or, else, its exact domain (0 returned), or why
// it is neither.
func importTarget(raw string) (int64, string) {
	id, err := strconv.ParseInt(raw, 10, 64)
	switch {
	case err == nil && id > 0:
		return id, ""
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Sprintf("Import takes the website's numeric id or its exact domain; %q is too large for an id "+
			"(at most %d). Check the id (shown in the web interface's URL of the website).", raw, int64(math.MaxInt64))
	}
	if p := domainProblem(raw); p != "" {
		return 0, "Import takes the website's numeric id or its exact domain. " + p
	}
	return 0, ""
}

// keyUser names the API key's user for messages.
func keyUser(owner *websiteOwner) string {
	if owner == nil {
		return "this API key's user"
	}
	return "this API key's user, " + owner.String()
}
