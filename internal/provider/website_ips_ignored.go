package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// lifecycle ignore_changes = [exclude_ips] says: do not manage the list.
// The write-back of a folded list (website_ips_folded.go) must then not
// run, but Terraform never tells the provider about ignore_changes. At plan
// time it replaces the configuration's exclude_ips with the state's before
// it asks for the plan; at apply time it sends the configuration as
// written. It does validate each instance's configuration as written just
// before it plans it. So ValidateConfig notes each configuration as
// validated: its domain, the rest of it, and its exclude_ips. The plan
// writes the list back only when a note of its domain holds the list it
// is given; when the domain has notes of more than one configuration (two
// resources), only when a note holds the configuration it is given, list
// and all, since another resource's list may be the one the state holds.
// The update compares its configuration with its plan.
//
// What stays out of sight: a configuration whose list is the very list
// the state holds. With or without ignore_changes, Terraform sends the
// provider the same values, so the repeats are written back once; the
// server excludes the same addresses. The same goes for two resources of
// one domain whose configurations differ in exclude_ips alone.
//
// The notes of the plan made again at apply may differ from the plan's
// (-target validates fewer configurations; a list unknown at plan is
// known). So a write-back changes the planned values only when nothing
// else is planned (planFoldedIPs); otherwise the update goes ahead anyway
// and the decision is the final plan's.

// configuredIPs are the configurations validated in this run, by domain as
// written: each noted as the rest of it (restKey) and its exclude_ips
// (ipsKey), or ipsUnknown for a list not known yet.
type configuredIPs struct {
	mu       sync.Mutex
	byDomain map[string]map[ipsNote]bool
}

// ipsNote is a configuration as noted: the rest of it, and its list.
type ipsNote struct{ rest, ips string }

// ipsUnknown is noted for a list unknown at validation: it matches no
// list a plan is given, so no write-back is planned from it.
const ipsUnknown = "unknown"

// note records a configuration as validated.
func (c *configuredIPs) note(ctx context.Context, cfg websiteResourceModel) {
	if cfg.Domain.IsNull() || cfg.Domain.IsUnknown() {
		return
	}
	key, ok := ipsKey(ctx, cfg.ExcludeIPs)
	if !ok {
		key = ipsUnknown
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byDomain == nil {
		c.byDomain = map[string]map[ipsNote]bool{}
	}
	domain := cfg.Domain.ValueString()
	if c.byDomain[domain] == nil {
		c.byDomain[domain] = map[ipsNote]bool{}
	}
	c.byDomain[domain][ipsNote{restKey(cfg), key}] = true
}

// written reports whether cfg, the configuration a plan is given, has the
// exclude_ips written in its configuration: false when ignore_changes put
// the state's list in their place, or when its list was not known at
// validation. With one configuration noted for the domain (the plan's
// own), the list decides, so that ignore_changes of other attributes does
// not matter; with several, the configuration, list and all. With no note
// of the domain (a configuration not validated in this run) it reports
// true, as before notes were taken; noted says whether a note decided.
func (c *configuredIPs) written(ctx context.Context, cfg websiteResourceModel) (written, noted bool) {
	key, ok := ipsKey(ctx, cfg.ExcludeIPs)
	if !ok {
		return false, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	notes, seen := c.byDomain[cfg.Domain.ValueString()]
	if len(notes) == 1 {
		for n := range notes {
			return n.ips == key, true
		}
	}
	return !seen || notes[ipsNote{restKey(cfg), key}], seen
}

// restKey is a comparable form of a configuration but its exclude_ips
// (each attribute's value as attr.Value writes it): a digest, so that no
// note holds a password as written.
func restKey(cfg websiteResourceModel) string {
	h := sha256.New()
	v := reflect.ValueOf(cfg)
	for i := range v.NumField() {
		if i == websiteModelField("exclude_ips") {
			continue
		}
		fmt.Fprintf(h, "%d=%s\n", i, v.Field(i).Interface().(attr.Value).String()) //nolint:forcetypeassert // every field is an attr.Value (TestWebsiteAttributes_model)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// planWriteBack reports whether a plan (cfg, plan and prior state) writes
// back a list whose repeats the last read folded: when a note of the
// configuration as validated says that it sets the list, always; without
// a note, only the list Terraform wrote last (rewriteFoldedIPs).
func (c *configuredIPs) planWriteBack(ctx context.Context, cfg websiteResourceModel, plan, prior types.Set,
	private privateGetter, diags *diag.Diagnostics,
) bool {
	written, noted := true, false
	if c != nil {
		written, noted = c.written(ctx, cfg)
	}
	switch {
	case !written: // ignore_changes
		return false
	case noted:
		return foldedUnchanged(ctx, plan, prior, private, diags)
	default:
		return rewriteFoldedIPs(ctx, plan, prior, private, diags)
	}
}

// ipsKey is a comparable form of exclude_ips as a configuration sets it: a
// sorted JSON list, with null as none (its default); false when unknown.
func ipsKey(ctx context.Context, ips types.Set) (string, bool) {
	if ips.IsUnknown() {
		return "", false
	}
	var diags diag.Diagnostics
	list, ok := sortedIPs(ctx, ips, &diags)
	if !ok {
		list = []string{}
	}
	raw, err := json.Marshal(list)
	if err != nil || diags.HasError() {
		return "", false
	}
	return string(raw), true
}

// configSetsPlannedIPs reports whether the configuration of an apply (as
// written: Terraform applies ignore_changes to the plan only) sets the
// exclude_ips of the plan; false when ignore_changes kept the state's.
func configSetsPlannedIPs(ctx context.Context, cfg, plan types.Set) bool {
	c, okc := ipsKey(ctx, cfg)
	p, okp := ipsKey(ctx, plan)
	return okc && okp && c == p
}

// sameIPSet reports whether server, a list the API returned, holds the
// entries of state as a read folds them (foldIPEntries: repeats and other
// spellings of one address); false when state is unknown.
func sameIPSet(ctx context.Context, server []string, state types.Set) bool {
	s, ok := ipsKey(ctx, state)
	if !ok {
		return false
	}
	list := append([]string{}, foldIPEntries(server)...)
	slices.Sort(list)
	raw, err := json.Marshal(list)
	return err == nil && string(raw) == s
}

// addIPsChangedSincePlan warns that an update left exclude_ips as the
// server holds it, because it changed after the plan's refresh; rewrite:
// the plan meant to write it back without repeats.
func addIPsChangedSincePlan(diags *diag.Diagnostics, domain string, rewrite bool) {
	what := "The update left it out"
	if rewrite {
		what = "The update did not write it back without repeats"
	}
	diags.AddAttributeWarning(path.Root("exclude_ips"), "exclude_ips Changed Since the Plan",
		fmt.Sprintf("The exclude_ips of the website %q changed on the server since this resource's state was last "+
			"read (in the web interface or by another client). %s, so that the server keeps the new list, and this resource's "+
			"state holds the planned list until the next refresh. Run terraform plan to see the change.", domain, what))
}
