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
// twice (two resources) matches either list, so that a plan made again at
// apply for one of them (-target) decides as the plan did (review rev44l).
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
		{"configured twice, one list", cfg("twice.example", "1.1.1.1"), true},
		{"configured twice, the other list", cfg("twice.example", "2.2.2.2"), true},
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
