package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
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
// validated, by domain: the rest of it (a digest) and its exclude_ips.
// When a plan comes, the note of its own configuration is among those of
// its domain. With that one note alone, the plan is given the list
// written in the configuration exactly when the note holds it. With more
// than one configuration of the domain noted (two resources), no plan can
// tell which note is its own: no write-back is planned. (A resource
// planned before the other's configuration is noted still sees its own
// note alone; when the plan made again at apply sees both, the update
// becomes a no-op, and the plan announced a write-back the apply leaves
// out.) The update compares its configuration, as written, with
// its plan, and writes only a list the configuration sets.
//
// What stays out of sight: a configuration whose list is the very list
// the state holds. With or without ignore_changes, Terraform sends the
// provider the same values, so the repeats are written back once; the
// server excludes the same addresses.
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
// exclude_ips written in its configuration (see above): false for a list
// unknown, and for a domain with more than one configuration noted. With
// no note of the domain (a configuration not validated in this run, or a
// domain that ignore_changes keeps) it reports true; noted says whether a
// note decided.
func (c *configuredIPs) written(ctx context.Context, cfg websiteResourceModel) (written, noted bool) {
	key, ok := ipsKey(ctx, cfg.ExcludeIPs)
	if !ok {
		return false, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	notes, seen := c.byDomain[cfg.Domain.ValueString()]
	if !seen {
		return true, false
	}
	if len(notes) != 1 {
		return false, true
	}
	for n := range notes {
		return n.ips == key, true
	}
	return false, true
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
// back a list whose repeats the last read folded: never with the provider
// not configured (no notes taken); when a note of the configuration as
// validated tells, as it says; without a note, only the list Terraform
// wrote last (rewriteFoldedIPs), unless an apply found it kept by
// ignore_changes (ipsKeptKey).
func (c *configuredIPs) planWriteBack(ctx context.Context, cfg websiteResourceModel, plan, prior types.Set,
	private privateGetter, diags *diag.Diagnostics,
) bool {
	if c == nil {
		return false
	}
	written, noted := c.written(ctx, cfg)
	switch {
	case !written: // ignore_changes, or two configurations of the domain
		return false
	case noted:
		return foldedUnchanged(ctx, plan, prior, private, diags)
	default:
		return !c.kept(ctx, prior, private, diags) && rewriteFoldedIPs(ctx, plan, prior, private, diags)
	}
}

// ipsKeptKey is the private state's record of an exclude_ips list that an
// update planned to write back and found kept by ignore_changes, with the
// list its configuration as written set then (a keptRecord). A plan that
// no note decides (the domain itself kept by ignore_changes) does not
// write that list back while a configuration of this run still sets that
// other list.
const ipsKeptKey = "exclude_ips_kept"

// keptRecord is the value of ipsKeptKey: two ipsKey lists.
type keptRecord struct {
	Kept       string `json:"kept"`
	Configured string `json:"configured"`
}

// recordKeptIPs records ips as kept by ignore_changes beside cfg, the list
// the configuration as written sets (ipsKeptKey); a null ips clears the
// record.
func recordKeptIPs(ctx context.Context, ips, cfg types.Set, private privateSetter, diags *diag.Diagnostics) {
	var raw []byte
	kept, ok := ipsKey(ctx, ips)
	configured, okc := ipsKey(ctx, cfg)
	if ok && okc && !ips.IsNull() {
		raw, _ = json.Marshal(keptRecord{kept, configured}) // two strings always marshal
	}
	diags.Append(private.SetKey(ctx, ipsKeptKey, raw)...)
}

// kept reports whether ips is the list an apply found kept by
// ignore_changes (ipsKeptKey), and a configuration noted in this run still
// sets the list that was configured then.
func (c *configuredIPs) kept(ctx context.Context, ips types.Set, private privateGetter, diags *diag.Diagnostics) bool {
	raw := privateString(ctx, private, ipsKeptKey, diags)
	var rec keptRecord
	key, ok := ipsKey(ctx, ips)
	if raw == "" || !ok || json.Unmarshal([]byte(raw), &rec) != nil || rec.Kept != key {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, notes := range c.byDomain {
		for n := range notes {
			if n.ips == rec.Configured {
				return true
			}
		}
	}
	return false
}

// ipsKey is a comparable form of exclude_ips as a configuration sets it: a
// sorted JSON list, with null as none (its default); false when unknown.
func ipsKey(ctx context.Context, ips types.Set) (string, bool) {
	if ips.IsUnknown() {
		return "", false
	}
	var diags diag.Diagnostics
	list, _ := sortedIPs(ctx, ips, &diags) // null: none
	if diags.HasError() {
		return "", false
	}
	return listKey(list), true
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
	return listKey(foldIPEntries(server)) == s
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

// addIPsKept warns that an update did not write back the list its plan
// announced: ignore_changes keeps it (recordKeptIPs).
func addIPsKept(diags *diag.Diagnostics, domain string) {
	diags.AddAttributeWarning(path.Root("exclude_ips"), "exclude_ips Kept by ignore_changes",
		fmt.Sprintf("The plan announced that the exclude_ips of the website %q would be written back without repeats. "+
			"This resource's configuration sets another list, which lifecycle ignore_changes keeps: nothing was "+
			"written back, and later plans no longer announce it.", domain))
}
