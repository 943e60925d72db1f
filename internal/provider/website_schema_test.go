package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Secrets are marked sensitive, so that Terraform never shows them in a plan.
func TestWebsiteSchema_secretsSensitive(t *testing.T) {
	t.Parallel()
	s := websiteResourceSchema(context.Background())
	for _, name := range []string{"password", "password_wo"} {
		a, ok := s.Attributes[name].(schema.StringAttribute)
		if !ok || !a.Sensitive {
			t.Errorf("%s is not a sensitive string attribute", name)
		}
	}
	if a := s.Attributes["password_wo"].(schema.StringAttribute); !a.WriteOnly { //nolint:forcetypeassert // checked above
		t.Error("password_wo is not write-only")
	}
}

// exclude_params: unset and "managed, empty" are different values, and
// neither is computed, so they never flip-flop.
func TestWebsiteSchema_excludeParamsNotComputed(t *testing.T) {
	t.Parallel()
	a := websiteResourceSchema(context.Background()).Attributes["exclude_params"].(schema.SetAttribute) //nolint:forcetypeassert // the schema's own type
	if !a.Optional || a.Computed || a.Default != nil {
		t.Errorf("exclude_params: optional=%v computed=%v default=%v, want optional only", a.Optional, a.Computed, a.Default)
	}
}

func TestUpgradeExcludeParamsV0(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		in       types.Set
		wantNull bool
	}{
		"empty set (unset in 0.1.0)": {stringSetValue(nil), true},
		"null":                       {types.SetNull(types.StringType), true},
		"set by Terraform":           {stringSetValue([]string{"utm_source"}), false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := upgradeExcludeParamsV0(tc.in)
			if got.IsNull() != tc.wantNull || (!tc.wantNull && !got.Equal(tc.in)) {
				t.Errorf("upgradeExcludeParamsV0(%v) = %v", tc.in, got)
			}
		})
	}
}

// The errors of the data-safety rules get diagnostics that say what
// happened and what to do.
func TestAddAPIErrorSafety(t *testing.T) {
	t.Parallel()
	for want, err := range map[string]error{
		"Unexpected Answer at base_url: Could not read the website \"x.example\": GET /websites/1: HTTP 404 from https://h/api/v1":                                           &client.APIError{Kind: client.ErrNotAPI, Method: "GET", Path: "/websites/1", StatusCode: 404, BaseURL: "https://h/api/v1"},
		"Website List Changed While Reading: Could not read the websites: the total changed. Rather than return an incomplete list":                                          &client.APIError{Kind: client.ErrListChanged, Method: "GET", Path: "/websites", StatusCode: 200, Message: "the total changed"},
		"Several Websites With One Domain: Could not read the website \"x.example\": 2 websites have the domain \"x.example\" (ids 3, 4); import the one you mean by its id": &client.DuplicateDomainError{Domain: "x.example", IDs: []int64{3, 4}},
	} {
		var diags diag.Diagnostics
		domain := "x.example"
		if strings.Contains(want, "the websites") {
			domain = ""
		}
		addAPIError(&diags, "read", domain, err)
		if len(diags) != 1 || !strings.HasPrefix(diags[0].Summary()+": "+diags[0].Detail(), want) {
			t.Errorf("%v:\ngot  %v\nwant %s...", err, diags, want)
		}
	}
}
