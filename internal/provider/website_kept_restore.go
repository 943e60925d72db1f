package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// restoreReadLimit bounds the read of a kept website that a failed create
// puts back: a read that cannot be made in time (the server's rate limit
// window, say) puts the website back with its last known values.
const restoreReadLimit = 15 * time.Second

// cancelGrace bounds the read of a kept website after a cancelled create.
const cancelGrace = 5 * time.Second

// mayHaveStored reports whether a create that failed with err may have
// stored a new website: the client could not settle its outcome by looking
// the domain up, or found websites with it that it could not tell apart.
// Every other failure stored nothing (the client settles an unclear answer
// by a lookup, and a website it finds that existed before is reported as
// "already taken").
func mayHaveStored(err error) bool {
	var unknown *client.CreateOutcomeUnknownError
	var dup *client.DuplicateCreateError
	return errors.As(err, &unknown) || errors.As(err, &dup)
}

// restoreKept handles a create of plan that failed with err, before or
// after its request; report adds the create's own error. When skip_destroy
// kept a website with the domain in this run, it reports the failure with
// what became of that website, and returns true: the website is put back
// into the state when that is sound (see website_kept.go): nothing new was
// stored, exactly one website was kept with the domain, it was not put
// back already, and the plan manages it as it was kept. It returns false
// when no website was kept with the domain, or the kept one is gone: the
// caller reports the create's failure alone. After a create that may have
// stored, the error says what the read of the kept website shows instead
// of the create's own (website_kept_report.go).
//
// The restored state is the kept website's last state with the server's
// answer applied onto it: what the API does not return, and what never
// reaches the server (skip_destroy, timeouts), is what that state held,
// never the plan's values, which no request wrote.
func (r *websiteResource) restoreKept(ctx context.Context, plan websiteResourceModel, in client.WebsiteInput,
	owner *websiteOwner, err error, report func(*diag.Diagnostics), resp *resource.CreateResponse,
) bool {
	domain := in.Domain
	ids, k := r.data.kept.lookup(domain)
	if len(ids) == 0 {
		return false
	}
	taken := domainTaken(err)
	plain, quoted := idList(ids)
	which := fmt.Sprintf("a website with this domain (id %d)", ids[0])
	if len(ids) > 1 {
		which = fmt.Sprintf("%d websites with this domain (ids %s)", len(ids), strings.Join(plain, ", "))
	}
	importIt := fmt.Sprintf("To manage it with this resource, import it: an import block with id = %s.",
		strings.Join(quoted, " or "))
	// While the kept website holds the domain, no new website can have it
	// (domains are unique on the installation, checked before the insert):
	// a create that may have stored (unknown) stored nothing if a read
	// shows the kept website still there (readKept).
	unknown := mayHaveStored(err)
	if !unknown && errors.Is(err, context.Canceled) {
		// The create's own error says to apply again to create it: not
		// while a kept website holds the domain.
		report = func(diags *diag.Diagnostics) {
			diags.AddError("Create Cancelled", fmt.Sprintf("The create of the website %q was cancelled "+
				"(interrupted, as by Ctrl-C) before any request reached the application, so no website was "+
				"stored.", domain))
		}
	}
	if len(ids) > 1 {
		if unknown {
			held, how, unread := r.keptStillHeld(ctx, domain, ids, err)
			switch {
			case held > 0:
				addKeptSeveralUnknown(&resp.Diagnostics, domain, which, held, how, err, importIt)
				return true
			case unread != nil:
				addKeptSeveralUnread(&resp.Diagnostics, domain, which, unread, err, importIt)
				return true
			default: // every read showed its website gone
				reportWith(&resp.Diagnostics, report, fmt.Sprintf("skip_destroy = true kept %s on the server in "+
					"this apply. Reads show them gone now, so the create may have stored a new website: check the "+
					"web interface, and import it to manage it with this resource.", which))
				return true
			}
		}
		if !taken {
			reportWith(&resp.Diagnostics, report, fmt.Sprintf("skip_destroy = true kept %s on the server in this "+
				"apply. The provider cannot tell which one this resource held, so none is put back into its state. "+
				"%s", which, importIt))
			return true
		}
		resp.Diagnostics.AddError("Domain Already Exists",
			fmt.Sprintf("Could not create the website %q: skip_destroy = true kept %s on the server in this apply, "+
				"and domains are unique on the installation. The provider cannot tell which one this resource "+
				"held, so none is put back into its state. Nothing was created or deleted, and no resource holds "+
				"those websites now. %s", domain, which, importIt))
		return true
	}
	id := ids[0]
	if k == nil {
		why := "and put back into another resource's state already"
		if !taken {
			reportWith(&resp.Diagnostics, report, fmt.Sprintf("skip_destroy = true kept %s on the server in this "+
				"apply, %s, so this resource does not hold it. %s", which, why, importIt))
			return true
		}
		resp.Diagnostics.AddError("Domain Already Exists",
			fmt.Sprintf("Could not create the website %q: skip_destroy = true kept a website with this domain (id %d) "+
				"on the server in this apply, %s, and domains are unique on the installation. Nothing was created, "+
				"and this resource does not hold the kept website. To manage it with this resource, import it: "+
				"terraform import <this resource's address> %d, or an import block with id = \"%d\"; then apply to "+
				"bring its settings to this configuration.", domain, id, why, id, id))
		return true
	}
	// Other settings than the kept state's: the create takes the website
	// over, updating it to the plan (website_kept_takeover.go). When that
	// cannot be done (nothing clearly stored, a read or the update failed),
	// it is put back as kept, tainted, as with the same settings: its state
	// says skip_destroy = true, so no later apply deletes it.
	if !unknown && !sameConfiguration(plan, k.state) && r.takeOverKept(ctx, plan, in, id, k, owner, resp) {
		return true
	}
	if !r.data.kept.claim(domain, id, true) {
		return false
	}
	w, gone, gerr := r.readKept(ctx, domain, id, k, owner)
	unread := gerr != nil && !gone
	if gone {
		r.data.kept.claim(domain, id, false)
		if unknown {
			reportWith(&resp.Diagnostics, report, fmt.Sprintf("skip_destroy = true kept %s on the server in "+
				"this apply, but it is gone now, so a new website may have been stored: check the web interface, "+
				"and import it to manage it with this resource.", which))
			return true
		}
		return false
	}
	state := k.state
	if !unread {
		if err := state.applyWebsite(w); err != nil {
			r.data.kept.claim(domain, id, false)
			return false
		}
	}
	state.TrackingCode = r.data.trackingCodeOr(state.TrackingCode)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	for key, raw := range k.private {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, key, raw)...)
	}
	if k.private[ownerKey] == nil && gerr == nil { // only a read proves the key's user owns it
		remember(ctx, resp.Private, owner, &resp.Diagnostics)
	}
	setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
	cannot, retry := "Its replacement cannot succeed while it holds the domain.", ""
	if !sameConfiguration(plan, k.state) {
		// The take-over could not be made now; the next apply tries again.
		cannot = "This configuration's settings differ from the website's: the next apply takes it over and " +
			"updates it, unless it is untainted first (then it plans the update)."
		retry = cannot + " "
	}
	if unknown {
		addKeptRestoredUnknown(&resp.Diagnostics, domain, id, err, gerr, cannot)
		return true
	}
	values := "It is now in this resource's state, marked tainted."
	if unread {
		values = fmt.Sprintf("The website could not be read (%s), so it is back in this resource's state with its "+
			"last known values, marked tainted; the next refresh will settle them.", gerr.Error())
	}
	next := "Nothing was deleted or created. " + keepOrRemove
	if !taken && errors.Is(err, context.Canceled) {
		// The create's own error says to apply again to create it: the
		// replacement cannot succeed while the kept website holds the domain.
		resp.Diagnostics.AddError("Create Cancelled: skip_destroy Kept the Website",
			fmt.Sprintf("The create of the website %q was cancelled (interrupted, as by Ctrl-C) before any request "+
				"reached the application, so no website was stored. skip_destroy = true kept %s on the server in "+
				"this apply, from this resource (tainted or replaced) or from a resource removed from the "+
				"configuration. %s %s %s", domain, which, values, cannot, next))
		return true
	}
	if !taken {
		reportWith(&resp.Diagnostics, report, fmt.Sprintf("skip_destroy = true kept %s on the server in this apply, "+
			"from this resource (tainted or replaced) or from a resource removed from the configuration. %s %s %s",
			which, values, cannot, next))
		return true
	}
	if !unread {
		domain = w.Domain
	}
	resp.Diagnostics.AddError("Domain Already Exists: skip_destroy Kept the Website",
		fmt.Sprintf("Could not create the website %q: skip_destroy = true kept %s on the server in this apply, and "+
			"domains are unique on the installation. It was kept from this resource (tainted or replaced), or from a "+
			"resource removed from the configuration. %s %s%s", domain, which, values, retry, next))
	return true
}

// readKept reads the kept website k (id, kept with domain) for the key's
// user owner. gone reports evidence that it is no longer there: another
// website under the id (another domain or creation time: otherWebsite), or
// a 404 when the kept website's owner is the key's user (the API answers
// 404 for another user's website too). Any other failure is gerr with gone
// false: the website may still be there.
func (r *websiteResource) readKept(ctx context.Context, domain string, id int64, k *keptWebsite, owner *websiteOwner,
) (w *client.Website, gone bool, gerr error) {
	rctx, cancel := restoreContext(ctx)
	defer cancel()
	w, gerr = r.data.client.GetWebsite(rctx, id)
	if gerr != nil {
		gone = errors.Is(gerr, client.ErrNotFound) && keptOwnedBy(ctx, k.private, owner)
	} else {
		gone = canonicalDomain(w.Domain) != canonicalDomain(domain) || otherWebsite(k.state, w)
	}
	if gone {
		tflog.Warn(ctx, "the website skip_destroy kept is gone", map[string]any{"id": id})
	}
	return w, gone, gerr
}

// restoreContext is ctx for the read of a kept website, bounded by
// restoreReadLimit, and given that time again when the create's time limit
// has passed, or cancelGrace when the create was cancelled (as by Ctrl-C):
// one more request is better than losing the website, or than advice that
// the read would have shown false.
func restoreContext(ctx context.Context) (context.Context, context.CancelFunc) {
	limit := restoreReadLimit
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		ctx = context.WithoutCancel(ctx)
	case errors.Is(ctx.Err(), context.Canceled):
		ctx, limit = context.WithoutCancel(ctx), cancelGrace
	}
	return context.WithTimeout(ctx, limit)
}

// reportWith adds the diagnostics of report, the detail of its last error
// followed by sentence.
func reportWith(diags *diag.Diagnostics, report func(*diag.Diagnostics), sentence string) {
	var own diag.Diagnostics
	report(&own)
	last := -1
	for i, d := range own {
		if d.Severity() == diag.SeverityError {
			last = i
		}
	}
	if last < 0 {
		diags.Append(own...)
		diags.AddError("Website Not Created", sentence)
		return
	}
	for i, d := range own {
		if i == last {
			detail := strings.TrimSpace(d.Detail() + " " + sentence)
			if pd, ok := d.(diag.DiagnosticWithPath); ok && pd.Path().String() != "" {
				d = diag.NewAttributeErrorDiagnostic(pd.Path(), d.Summary(), detail)
			} else {
				d = diag.NewErrorDiagnostic(d.Summary(), detail)
			}
		}
		diags.Append(d)
	}
}

// keptOwnedBy reports whether the owner remembered in a kept website's
// private state (rememberedOwner) is the key's user owner.
func keptOwnedBy(ctx context.Context, private map[string][]byte, owner *websiteOwner) bool {
	var diags diag.Diagnostics // a map's GetKey reports nothing
	o := rememberedOwner(ctx, privateMap(private), &diags)
	return o != nil && owner != nil && o.ID == owner.ID
}

// privateMap is a private state as the kept website holds it, read as
// Terraform's.
type privateMap map[string][]byte

func (m privateMap) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return m[key], nil
}
