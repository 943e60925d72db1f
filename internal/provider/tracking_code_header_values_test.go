package provider

import (
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestResolveTrackingCode_headerValueNotASecret: every header value counts
// as a secret, but many are not: an internal base_url reached with
// X-Forwarded-Host set to the public host name, which is also the
// tracking URL, or an environment name that is part of the host name. The
// tracking URL is then refused as "holds a secret", and the provider cannot
// be configured at all.
func TestResolveTrackingCode_headerValueNotASecret(t *testing.T) {
	for _, tc := range []struct{ header, url string }{
		{"analytics.example.com", "https://analytics.example.com"},
		{"production", "https://analytics.production.example.com"},
	} {
		var diags diag.Diagnostics
		resolveTrackingCode(providerModel{TrackingURL: types.StringValue(tc.url)}, "http://10.0.0.5:8080/api/v1",
			[]string{"api-key-0123456789", tc.header}, os.Getenv, &diags)
		if diags.HasError() {
			t.Errorf("header value %q, tracking_url %q: %v", tc.header, tc.url, diags.Errors()[0].Detail())
		}
	}
}
