package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The plan tells ignore_changes by the configuration as validated: a list
// the plan is given that no configuration of the domain sets, or a domain
// whose list was not known at validation, is not written back; a domain
// not validated in this run is, as before the notes. A domain configured
// twice with configurations that differ in exclude_ips alone matches
// neither: the plan cannot tell which is its own.
func TestConfiguredIPsWritten(t *testing.T) {
	ctx := context.Background()
	cfg := func(domain string, ips ...string) websiteResourceModel {
		m := websiteResourceModel{Domain: types.StringValue(domain), ExcludeIPs: types.SetNull(types.StringType)}
		if ips != nil {
			m.ExcludeIPs = stringSetValue(ips)
		}
		return m
	}
	var c configuredIPs
	c.note(ctx, cfg("unset.example"))                     // exclude_ips not set
	c.note(ctx, cfg("set.example", "2.2.2.2", "1.1.1.1")) // order does not matter
	c.note(ctx, cfg("twice.example", "1.1.1.1"))
	c.note(ctx, cfg("twice.example", "2.2.2.2"))
	c.note(ctx, websiteResourceModel{Domain: types.StringUnknown(), ExcludeIPs: stringSetValue([]string{"9.9.9.9"})})
	c.note(ctx, websiteResourceModel{Domain: types.StringValue("later.example"), ExcludeIPs: types.SetUnknown(types.StringType)})
	for _, tc := range []struct {
		name string
		plan websiteResourceModel
		want bool
	}{
		{"unset, planned unset", cfg("unset.example"), true},
		{"unset, planned none", cfg("unset.example", []string{}...), true},
		{"unset, the state's list (ignore_changes)", cfg("unset.example", "1.1.1.1"), false},
		{"set, the same list", cfg("set.example", "1.1.1.1", "2.2.2.2"), true},
		{"set, another list (ignore_changes)", cfg("set.example", "1.1.1.1"), false},
		{"configured twice, one list", cfg("twice.example", "1.1.1.1"), false},
		{"configured twice, the other list", cfg("twice.example", "2.2.2.2"), false},
		{"configured twice, a third list (ignore_changes)", cfg("twice.example", "3.3.3.3"), false},
		{"list unknown at validation", cfg("later.example", "1.1.1.1"), false},
		{"not validated", cfg("other.example", "1.1.1.1"), true},
		{"unknown list", websiteResourceModel{Domain: types.StringValue("set.example"), ExcludeIPs: types.SetUnknown(types.StringType)}, false},
	} {
		if got, _ := c.written(ctx, tc.plan); got != tc.want {
			t.Errorf("%s: written = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A domain with more than one configuration noted (two resources) plans
// no write-back: no plan can tell which note is its own.
// With one, the list decides, whatever else the plan is
// given (ignore_changes of another attribute).
func TestConfiguredIPsWrittenByRest(t *testing.T) {
	ctx := context.Background()
	cfg := func(domain, privacy string, ips ...string) websiteResourceModel {
		return websiteResourceModel{Domain: types.StringValue(domain), Privacy: types.StringValue(privacy),
			ExcludeIPs: stringSetValue(ips)}
	}
	var c configuredIPs
	c.note(ctx, cfg("one.example", "public", "1.1.1.1"))
	c.note(ctx, cfg("two.example", "public", "1.1.1.1"))  // a
	c.note(ctx, cfg("two.example", "private", "2.2.2.2")) // b
	for _, tc := range []struct {
		name string
		plan websiteResourceModel
		want bool
	}{
		{"one: as written", cfg("one.example", "public", "1.1.1.1"), true},
		{"one: privacy ignored", cfg("one.example", "private", "1.1.1.1"), true},
		{"one: list ignored", cfg("one.example", "public", "2.2.2.2"), false},
		{"two: a as written", cfg("two.example", "public", "1.1.1.1"), false},
		{"two: b under ignore_changes, a's list in its state", cfg("two.example", "private", "1.1.1.1"), false},
	} {
		if got, noted := c.written(ctx, tc.plan); got != tc.want || !noted {
			t.Errorf("%s: written = %v (noted %v), want %v", tc.name, got, noted, tc.want)
		}
	}
}
