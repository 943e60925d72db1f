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
// neither: the plan cannot tell which is its own (review rev44n).
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

// With the rest of each configuration noted too: a plan whose rest is a
// note's, with another list, is that configuration under ignore_changes
// (review rev44m, A: another resource of the domain sets the plan's
// list); a plan whose rest no note holds (ignore_changes of another
// attribute) is decided by the list.
func TestConfiguredIPsWrittenByRest(t *testing.T) {
	ctx := context.Background()
	cfg := func(privacy string, ips ...string) websiteResourceModel {
		return websiteResourceModel{Domain: types.StringValue("d.example"), Privacy: types.StringValue(privacy),
			ExcludeIPs: stringSetValue(ips)}
	}
	var c configuredIPs
	c.note(ctx, cfg("public", "1.1.1.1"))  // a
	c.note(ctx, cfg("private", "2.2.2.2")) // b
	for _, tc := range []struct {
		name string
		plan websiteResourceModel
		want bool
	}{
		{"a as written", cfg("public", "1.1.1.1"), true},
		{"b as written", cfg("private", "2.2.2.2"), true},
		{"b under ignore_changes, a's list in its state", cfg("private", "1.1.1.1"), false},
		{"privacy ignored too, a list noted", cfg("password", "2.2.2.2"), true},
		{"privacy ignored too, a list not noted", cfg("password", "9.9.9.9"), false},
	} {
		if got, noted := c.written(ctx, tc.plan); got != tc.want || !noted {
			t.Errorf("%s: written = %v (noted %v), want %v", tc.name, got, noted, tc.want)
		}
	}
}
