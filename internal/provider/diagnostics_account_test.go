package provider

import (
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A limit check skipped because the key is refused (401) or its plan has no
// API access (403) says that the apply will be refused the same way and what
// to do, not only "may fail", and quotes the server's message without a
// doubled full stop ("feature..").
func TestAddWebsiteLimitError_refusedKey(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"no API access", &client.APIError{Kind: client.ErrForbidden, Method: http.MethodGet, Path: "/account",
			StatusCode: http.StatusForbidden, Message: "You don't have access to this feature."},
			[]string{"At apply the server will refuse", "API access", "administrator"}},
		{"key refused", &client.APIError{Kind: client.ErrUnauthenticated, Method: http.MethodGet, Path: "/account",
			StatusCode: http.StatusUnauthorized, Message: "Unauthenticated."},
			[]string{"At apply the server will refuse", "api_key"}},
		{"server error", &client.APIError{Kind: client.ErrServer, Method: http.MethodGet, Path: "/account",
			StatusCode: http.StatusInternalServerError, Message: "Server Error."}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var diags diag.Diagnostics
			addWebsiteLimitError(&diags, types.StringValue("a.example.com"), tc.err)
			if len(diags) != 1 || diags.HasError() {
				t.Fatalf("want one warning, got %+v", diags)
			}
			d := diags[0].Detail()
			if strings.Contains(d, "..") {
				t.Errorf("doubled full stop: %s", d)
			}
			for _, w := range tc.want {
				if !strings.Contains(d, w) {
					t.Errorf("detail does not say %q: %s", w, d)
				}
			}
		})
	}
}
