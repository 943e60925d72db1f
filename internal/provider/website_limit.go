package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The website limit at plan time.
//
// The server refuses a create ("You created too many websites.") while the
// user holds as many websites as the plan allows. Terraform runs the creates
// and deletes of different websites in any order; a replacement deletes the
// old website before it creates the new one, unless create_before_destroy
// is set (which a provider is not told). So the plan counts every create
// (a kept replacement, skip_destroy, is one), replacement and delete once,
// in a tally that each website planned adds to, and judges the tally:
//
//   - the user's websites plus the creates and replacements fit: nothing
//     to say, whatever the order;
//   - the websites plus the creates fit, the replacements too only without
//     create_before_destroy: a replacement that creates first is refused;
//   - the websites plus the creates do not fit: a create is refused unless
//     the plan's deletes run first (the order decides), or in any order when
//     even the deletes planned so far do not make room.
//
// Terraform plans websites one at a time (a dependent after what it
// depends on), so each check counts the websites planned so far, itself
// included. A delete is checked too once the tally holds a create or a
// replacement (never otherwise, so a destroy costs no request), and warns
// when it changes what the creates need: whichever website is planned last
// sees the whole plan, so whether a warning appears does not depend on the
// order, and no warning says a create fails in every order while a delete
// may still be planned after it.

// limitEvent is what a website's plan does to the count.
type limitEvent int

const (
	limitCreate  limitEvent = iota // a new website, or a replacement that keeps the old one
	limitReplace                   // a replacement: a delete and a create
	limitDelete                    // a destroy that deletes the website
)

// planTally counts the creates, replacements and deletes planned so far.
type planTally struct {
	creates, replaces, deletes int
}

// planCounter is the tally of one provider instance (one command).
type planCounter struct {
	mu sync.Mutex
	t  planTally
}

// add counts e and returns the tally with it.
func (c *planCounter) add(e limitEvent) planTally {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch e {
	case limitCreate:
		c.t.creates++
	case limitReplace:
		c.t.replaces++
	case limitDelete:
		c.t.deletes++
	}
	return c.t
}

// peek returns the tally without counting.
func (c *planCounter) peek() planTally {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// limitVerdict is how a tally meets the limit.
type limitVerdict int

const (
	limitFits            limitVerdict = iota // in any order
	limitFitsDeleteFirst                     // only if no replacement creates before it deletes
	limitOrderDecides                        // only if the plan's deletes run before the creates
	limitOver                                // not even then
)

// judge compares the tally with the limit and the websites held.
func (t planTally) judge(limit, have int) limitVerdict {
	switch {
	case have+t.creates+t.replaces <= limit:
		return limitFits
	case have+t.creates <= limit:
		return limitFitsDeleteFirst
	case have+t.creates-t.deletes <= limit:
		return limitOrderDecides
	}
	return limitOver
}

// warnLimit counts the website's event e in the plan's tally and warns when
// the tally does not fit the user's plan in every order. lead says what
// this website's plan does. As every check, it shares one GET /account and
// one list request per command (websitesHeld); when they fail, it says so
// (addWebsiteLimitError).
func (r *websiteResource) warnLimit(ctx context.Context, e limitEvent, domain types.String, lead string,
	resp *resource.ModifyPlanResponse,
) {
	t := r.data.tally.add(e)
	if e == limitDelete && t.creates+t.replaces == 0 {
		return // nothing needs the room it makes
	}
	limit, have, ok, err := r.data.websitesHeld(ctx)
	if err != nil && e == limitDelete {
		return // the creates' checks say so
	}
	if err != nil {
		addWebsiteLimitError(&resp.Diagnostics, domain, err)
		return
	}
	if ok {
		addLimitWarning(&resp.Diagnostics, e, lead, limit, have, t)
	}
}

// creatingLead, replacingLead and keepingLead say what a website's plan
// does, for the limit warning.
func creatingLead(domain types.String) string {
	return fmt.Sprintf("This plan creates %s.", plannedWebsite(domain))
}

func replacingLead(from string, to types.String) string {
	return fmt.Sprintf("Changing the domain from %q to %s replaces the website (a delete and a create).", from, plannedDomain(to))
}

func deletingLead(domain types.String) string {
	return fmt.Sprintf("This plan deletes %s.", plannedWebsite(domain))
}

func keepingLead(from string, to types.String) string {
	return fmt.Sprintf("Changing the domain from %q to %s creates a new website, and since skip_destroy is true the "+
		"old website stays on the server.", from, plannedDomain(to))
}

// countCreates is "1 create" or "n creates".
func countCreates(n int) string {
	if n == 1 {
		return "1 create"
	}
	return fmt.Sprintf("%d creates", n)
}

// tallyText is what the tally counts: "creates 1 website and replaces 2
// websites".
func tallyText(t planTally) string {
	var parts []string
	for _, p := range []struct {
		verb string
		n    int
	}{{"creates", t.creates}, {"replaces", t.replaces}, {"deletes", t.deletes}} {
		if p.n > 0 {
			parts = append(parts, p.verb+" "+countWebsites(p.n))
		}
	}
	if len(parts) > 1 {
		return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	return strings.Join(parts, "")
}

// addLimitWarning warns when the tally t (this website's event e
// included) does not fit limit in every order, given the websites the user
// holds; nothing when it does.
func addLimitWarning(diags *diag.Diagnostics, e limitEvent, lead string, limit, have int, t planTally) {
	v := t.judge(limit, have)
	if v == limitFits || (e == limitDelete && (v == limitFitsDeleteFirst || t.creates+t.replaces == 0)) {
		return // a delete changes only what the creates need
	}
	summary := "Website Limit Would Be Exceeded"
	if e == limitReplace || v == limitFitsDeleteFirst {
		summary = "Replacement at the Website Limit"
	}
	refused := fmt.Sprintf("the server refuses every create while the user holds %d (\"You created too many "+
		"websites.\")", limit)
	var b strings.Builder
	fmt.Fprintf(&b, "%s Counting it, the plan so far %s (a website planned later is counted in its own check); the "+
		"API key's user holds %s, and the plan allows %d. ", lead, tallyText(t), countWebsites(have), limit)
	end := max(have+t.creates-t.deletes, 0)
	planned := t.creates + t.replaces // no more creates fail than the plan holds
	switch v {
	case limitFitsDeleteFirst:
		fmt.Fprintf(&b, "Without create_before_destroy, Terraform deletes each replaced website before it creates "+
			"the new one, and what is planned so far fits, whichever runs first. With lifecycle { create_before_destroy = true } (which "+
			"-replace also follows), it creates the new website while the old one still counts: %s, so up to %s "+
			"may fail, depending on the order in which Terraform runs them, and a refused replacement keeps its old "+
			"website. Before applying, remove create_before_destroy from the replaced websites, delete %s you no "+
			"longer need, or ask the installation's administrator for a larger plan.",
			refused, countCreates(min(have+t.creates+t.replaces-limit, planned)), countWebsites(have+t.creates+t.replaces-limit))
	case limitOrderDecides:
		fmt.Fprintf(&b, "Applied in full, it would make %s, within the limit, but only if the plan's "+
			"deletes run before the creates that need their room: Terraform runs the deletes and creates of different "+
			"websites in any order, and %s, so the order decides whether %s. Before applying, apply the "+
			"deletes first (for example with -target), delete %s you no longer need, or ask the installation's "+
			"administrator for a larger plan.", countWebsites(end), refused, upToFailing(min(have+t.creates-limit, planned)),
			countWebsites(have+t.creates-limit))
		if t.replaces > 0 && have-t.deletes+1 > limit {
			fmt.Fprintf(&b, " With lifecycle { create_before_destroy = true } (which -replace also follows), a "+
				"replacement creates while its old website still counts: even after every delete the user holds %s, "+
				"so it is refused in any order.", countWebsites(have-t.deletes))
		}
	case limitOver:
		fmt.Fprintf(&b, "Applied in full, it would make %s, more than the limit: %s, so at least %s "+
			"in any order, unless the plan deletes more websites than those planned so far (a delete planned later "+
			"warns again, counting the whole plan).", countWebsites(end), refused, failing(min(end-limit, planned)))
		if t.replaces > 0 {
			b.WriteString(" A replacement whose create is refused after Terraform deleted the old website (the " +
				"order without create_before_destroy) leaves no website, and the old one's statistics are gone; with " +
				"lifecycle { create_before_destroy = true } the old website stays.")
		}
		fmt.Fprintf(&b, " Before applying, delete %s you no longer need", countWebsites(have+t.creates-limit))
		if t.replaces > 0 {
			fmt.Fprintf(&b, " (%d if the replacements use create_before_destroy)", have+t.creates+t.replaces-limit)
		}
		b.WriteString(", or ask the installation's administrator for a larger plan.")
	}
	b.WriteString(hardStopHint)
	diags.AddAttributeWarning(path.Root("domain"), summary, b.String())
}

// upToFailing is "1 create fails" or "up to n creates fail".
func upToFailing(n int) string {
	if n == 1 {
		return "1 create fails"
	}
	return fmt.Sprintf("up to %d creates fail", n)
}

// failing is "1 create fails" or "n creates fail".
func failing(n int) string {
	if n == 1 {
		return "1 create fails"
	}
	return fmt.Sprintf("%d creates fail", n)
}
