package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A website is the one Terraform made only while its id holds its domain
// and its creation time: the server never changes either (an update
// ignores the domain), so another domain or another created_at under the
// same id is another website. Ids are reused: MySQL before 8.0 hands out
// the highest id again after a restart, and so does a restored backup; and
// base_url may move to another installation (a migration, staging to
// production) where the same user id owns a website under that id.
//
// So a refresh that finds another website under the id removes the managed
// one from the state, with a warning naming both, and never touches the
// other; an update or a delete first reads the website in the same command
// (through the bulk reader, so that many of them cost the list's pages,
// one request per 100 websites, not one per website) and writes nothing to
// another website. An import takes whatever is under the id: the state it
// reads has no domain yet.

// otherWebsite reports whether w, the record under the state's id, is
// another website than the one the state describes: its domain or its
// created_at differs. A state without them (an import) matches any record.
func otherWebsite(state websiteResourceModel, w *client.Website) bool {
	if d := state.Domain; !d.IsNull() && !d.IsUnknown() && d.ValueString() != "" && d.ValueString() != w.Domain {
		return true
	}
	c := state.CreatedAt
	if c.IsNull() || c.IsUnknown() || w.CreatedAt.IsZero() {
		return false
	}
	t, err := time.Parse(time.RFC3339, c.ValueString())
	if err != nil {
		return false // not a value this provider wrote: no evidence
	}
	// The state holds whole seconds (timeValue).
	return !t.Equal(w.CreatedAt.Truncate(time.Second))
}

// checkIdentity reads the website of state in this command before op
// ("update" or "delete") writes to it, and adds an error when another
// website is under the id. It returns what it read, and the read's error:
// a website that is gone is client.ErrNotFound, for the caller's own
// handling.
func (r *websiteResource) checkIdentity(ctx context.Context, op string, id int64, state websiteResourceModel,
	diags *diag.Diagnostics,
) (*client.Website, error) {
	w, err := r.data.websites.Read(ctx, id)
	if err != nil {
		return nil, err
	}
	if otherWebsite(state, w) {
		addOtherWebsiteError(diags, op, id, state, w)
	}
	return w, nil
}

// describeWebsite names a website with its creation time when known.
func describeWebsite(domain, createdAt string) string {
	if createdAt == "" {
		return fmt.Sprintf("%q", domain)
	}
	return fmt.Sprintf("%q (created %s)", domain, createdAt)
}

// otherWebsiteCause explains how another website came under an id.
const otherWebsiteCause = "The server never changes a website's domain or creation time, so this is another website: " +
	"the managed one was deleted outside Terraform and its id given again (a database restart or a restored backup " +
	"can do that), or base_url now points at another installation."

// addOtherWebsiteWarning is the refresh's warning that the state's website
// is no longer under its id (w is).
func addOtherWebsiteWarning(diags *diag.Diagnostics, id int64, state websiteResourceModel, w *client.Website) {
	was := describeWebsite(state.Domain.ValueString(), state.CreatedAt.ValueString())
	diags.AddWarning("Website No Longer Under Its ID",
		fmt.Sprintf("The website %s is no longer on the server under id %d: that id now holds the website %s. %s "+
			"Terraform removes %q from the state, so a plan that keeps it in the configuration creates it anew (a destroy has nothing more to do), and leaves %q alone. If base_url "+
			"moved by mistake, point it back before applying; to manage %q, import it.",
			was, id, describeWebsite(w.Domain, timeValue(w.CreatedAt).ValueString()), otherWebsiteCause,
			state.Domain.ValueString(), w.Domain, w.Domain))
}

// addOtherWebsiteError is the error of an update or a delete (op) that
// found another website under the state's id.
func addOtherWebsiteError(diags *diag.Diagnostics, op string, id int64, state websiteResourceModel, w *client.Website) {
	was := describeWebsite(state.Domain.ValueString(), state.CreatedAt.ValueString())
	verb := map[string]string{"update": "updated", "delete": "deleted"}[op]
	diags.AddError("Another Website Under This ID",
		fmt.Sprintf("Could not %s the website %s: id %d now holds the website %s. %s Nothing was %s. Run terraform "+
			"plan without -refresh=false: the refresh removes %q from the state (the plan then creates it anew) "+
			"and leaves %q alone.", op, was, id, describeWebsite(w.Domain, timeValue(w.CreatedAt).ValueString()),
			otherWebsiteCause, verb, state.Domain.ValueString(), w.Domain))
}

// addImportedByID says which website an import by id adopted.
func addImportedByID(diags *diag.Diagnostics, w *client.Website) {
	diags.AddWarning("Website Imported by ID",
		fmt.Sprintf("Imported id %d: the website %s. An import takes whatever website is under the id; check "+
			"that this is the one you meant, and that the configuration's domain is %q (a different one "+
			"replaces the website, deleting its statistics).", w.ID,
			describeWebsite(w.Domain, timeValue(w.CreatedAt).ValueString()), w.Domain))
}

// addDeletedBeforeUpdate is the error of an update whose website is gone.
func addDeletedBeforeUpdate(diags *diag.Diagnostics, domain string, id int64) {
	diags.AddError("Website Deleted Outside Terraform",
		fmt.Sprintf("The website %q (id %d) no longer exists on the server: it was deleted outside Terraform "+
			"after the last refresh. Nothing was changed. Run terraform apply again: the refresh will notice the "+
			"deletion and the website will be created anew.", domain, id))
}
