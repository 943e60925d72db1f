package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The errors of a create that may have stored (mayHaveStored) while
// skip_destroy kept a website with its domain in this run. The kept
// website existed before the create was sent; a read that finds it still
// there shows that it held the domain throughout, and the server checks
// that no website holds a domain before it stores one: the create stored
// nothing. Only a read that shows it gone leaves room for a new website.
// These errors replace the create's own, which tells the user to look for
// and import a website the state may lack.

// keepOrRemove is what to do with a kept website put back into the state.
const keepOrRemove = "To keep it, run terraform untaint <this resource's address>. If this resource should not " +
	"manage it, run terraform state rm <this resource's address>."

// noNewWebsite says why a create stored nothing while the kept website
// held the domain.
const noNewWebsite = "No new website can have been stored: the server refuses a domain that a website holds."

// createCause says what the create that may have stored got: its last
// failure, and what the lookup that should have settled it found.
func createCause(err error) string {
	var unknown *client.CreateOutcomeUnknownError
	var dup *client.DuplicateCreateError
	switch {
	case errors.As(err, &unknown):
		return fmt.Sprintf("the create got no clear answer (%v), and the lookup afterwards failed (%v)",
			unknown.Err, unknown.LookupErr)
	case errors.As(err, &dup):
		cause := "the create's answer was lost"
		if dup.Err != nil {
			cause = fmt.Sprintf("the create got no clear answer (%v)", dup.Err)
		}
		plain, _ := idList(dup.IDs)
		return fmt.Sprintf("%s, and the lookup afterwards found %d websites with this domain (ids %s), none made "+
			"by this create", cause, len(dup.IDs), strings.Join(plain, ", "))
	}
	return fmt.Sprintf("the create failed (%v)", err)
}

// otherHolders names the websites other than the kept one (id) that the
// lookup of a create that may have stored found with its domain, with
// what to do about them; "" when it found none.
func otherHolders(err error, id int64) string {
	var dup *client.DuplicateCreateError
	if !errors.As(err, &dup) {
		return ""
	}
	others := slices.DeleteFunc(slices.Clone(dup.IDs), func(o int64) bool { return o == id })
	if len(others) == 0 {
		return ""
	}
	plain, quoted := idList(others)
	if len(others) == 1 {
		return fmt.Sprintf(" Website %s has the same domain too. It was on the server before this create, and this "+
			"resource's state does not hold it. To manage it, import it into a resource of its own (an import block "+
			"with id = %s).", plain[0], quoted[0])
	}
	return fmt.Sprintf(" Websites %s have the same domain too. They were on the server before this create, and "+
		"this resource's state holds none of them. To manage one, import it into a resource of its own (an import "+
		"block with id = %s).", strings.Join(plain, ", "), strings.Join(quoted, " or "))
}

// addKeptRestoredUnknown reports a create of domain that may have stored
// (err), after the website skip_destroy kept with the domain (id) was put
// back into the state: read unchanged, or unread (gerr) with its last
// known values; cannot says what its replacement can do next.
func addKeptRestoredUnknown(diags *diag.Diagnostics, domain string, id int64, err, gerr error, cannot string) {
	kept := fmt.Sprintf("skip_destroy = true kept website %d, with this domain, on the server in this apply, from "+
		"this resource (tainted or replaced) or from a resource removed from the configuration.", id)
	if gerr == nil {
		diags.AddError("Website Not Created: skip_destroy Kept the Website",
			fmt.Sprintf("Could not create the website %q: %s. %s A read shows it unchanged. It is now in this "+
				"resource's state, marked tainted. %s %s Nothing was deleted or created. %s%s", domain,
				createCause(err), kept, noNewWebsite, cannot, keepOrRemove, otherHolders(err, id)))
		return
	}
	if lookupFound(err, id) {
		// The lookup after the create found it: it held the domain then.
		diags.AddError("Website Not Created: skip_destroy Kept the Website",
			fmt.Sprintf("Could not create the website %q: %s. %s The lookup after the create found it, so it held "+
				"the domain throughout. It could not be read now (%v), so it is back in this resource's state with "+
				"its last known values, marked tainted; the next refresh will settle them. %s %s Nothing was "+
				"deleted or created. %s%s", domain, createCause(err), kept, gerr, noNewWebsite, cannot, keepOrRemove,
				otherHolders(err, id)))
		return
	}
	diags.AddError("Website May Have Been Created",
		fmt.Sprintf("Could not tell whether the create of the website %q stored one: %s. %s It could not be read "+
			"(%v), so it is back in this resource's state with its last known values, marked tainted. While it "+
			"holds the domain, the server stores no other website with it. If another writer deleted it meanwhile, "+
			"the create may have stored a new website: the next refresh then drops the kept one, and an import "+
			"adopts the new one. Nothing was deleted. %s", domain, createCause(err), kept, gerr, keepOrRemove))
}

// lookupFound reports whether the lookup that settled a create that may
// have stored (err) found the website id: the lookup runs after the
// create, so a website made before it that it found held the domain all
// along.
func lookupFound(err error, id int64) bool {
	var dup *client.DuplicateCreateError
	return errors.As(err, &dup) && slices.Contains(dup.IDs, id)
}

// keptStillHeld reports a website among ids, the websites skip_destroy
// kept with domain, that held the domain throughout a create that may have
// stored (err), and how that is known: the lookup after the create found
// it, or a read now shows it with the domain. 0 when none is known to;
// unread is then the error of a read that could not tell (a failure other
// than a 404), nil when every read showed its website gone. The reads
// share one restoreContext, and run at once.
func (r *websiteResource) keptStillHeld(ctx context.Context, domain string, ids []int64, err error) (held int64,
	how string, unread error,
) {
	for _, id := range ids {
		if lookupFound(err, id) {
			return id, "the lookup after the create found it", nil
		}
	}
	// The reads run at once, so that one slow read does not use up the
	// grace of the others: any website still there settles it.
	rctx, cancel := restoreContext(ctx)
	defer cancel()
	type answer struct {
		id  int64
		w   *client.Website
		err error
	}
	answers := make(chan answer, len(ids))
	for _, id := range ids {
		go func() {
			w, gerr := r.data.client.GetWebsite(rctx, id)
			answers <- answer{id, w, gerr}
		}()
	}
	for range ids {
		a := <-answers
		switch {
		case a.err == nil && canonicalDomain(a.w.Domain) == canonicalDomain(domain):
			return a.id, "a read shows it still there", nil
		case a.err != nil && !errors.Is(a.err, client.ErrNotFound) && unread == nil:
			unread = fmt.Errorf("website %d: %w", a.id, a.err)
		}
	}
	return 0, "", unread
}

// addKeptSeveralUnread reports a create of domain that may have stored
// (err) while skip_destroy kept several websites with the domain (which),
// not all of which could be read (unread): while one holds the domain, the
// server stores no other website with it.
func addKeptSeveralUnread(diags *diag.Diagnostics, domain, which string, unread, err error, importIt string) {
	diags.AddError("Website Not Created: skip_destroy Kept the Websites",
		fmt.Sprintf("Could not create the website %q: %s. skip_destroy = true kept %s on the server in this apply. "+
			"Not all of them could be read (%v). While one of them holds the domain, the server stores no other "+
			"website with it. If another writer deleted them meanwhile, the create may have stored a new website: "+
			"check the web interface. The provider cannot tell which one this resource held, so none is put back "+
			"into its state. Nothing was deleted. %s", domain, createCause(err), which, unread, importIt))
}

// addKeptSeveralUnknown reports a create of domain that may have stored
// (err) while skip_destroy kept several websites with the domain (which),
// of which held still held it (how): nothing was stored, and none is put
// back, since the provider cannot tell which one this resource held.
func addKeptSeveralUnknown(diags *diag.Diagnostics, domain, which string, held int64, how string, err error,
	importIt string,
) {
	diags.AddError("Website Not Created: skip_destroy Kept the Websites",
		fmt.Sprintf("Could not create the website %q: %s. skip_destroy = true kept %s on the server in this apply. "+
			"Website %d held the domain throughout (%s). %s The provider cannot tell which one this resource "+
			"held, so none is put back into its state. Nothing was deleted or created. %s", domain,
			createCause(err), which, held, how, noNewWebsite, importIt))
}

// addKeptForRefusedCreate is the error of a removal by skip_destroy that
// would lose the website: a create of its domain ran earlier in this apply
// and failed (refused since this website held the domain, or for a passing
// reason). Removed, the website would be in no state; the state keeps it.
func addKeptForRefusedCreate(diags *diag.Diagnostics, domain, id string) {
	diags.AddError("Website Kept in This State",
		fmt.Sprintf("skip_destroy = true removes the website %q (id %s) from this resource's state only, but the "+
			"create of a website with the same domain ran earlier in this apply and failed (see its error). "+
			"Removed now, the website would be in no state: this resource keeps it. To hand it to the new "+
			"resource, add a moved block from this resource's address to the new one's and apply.", domain, id))
}
