package provider

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// importWithFailingAPI runs ImportState with id against a server that
// refuses every request (401), and returns the diagnostics' text and how
// many requests reached the server.
func importWithFailingAPI(t *testing.T, id string) (string, int64) {
	t.Helper()
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"message":"Unauthenticated."}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL+"/api/v1", "import-test-key", client.Options{Retry: &client.RetryOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	r := &websiteResource{data: newProviderData(c)}
	var resp resource.ImportStateResponse
	r.ImportState(t.Context(), resource.ImportStateRequest{ID: id}, &resp)
	if !resp.Diagnostics.HasError() {
		t.Fatalf("import %q against a server that refuses everything succeeded", id)
	}
	var text strings.Builder
	for _, d := range resp.Diagnostics {
		text.WriteString(d.Summary() + ": " + d.Detail() + "\n")
	}
	return text.String(), requests.Load()
}

// An import ID is read before anything is asked of the API, and no message
// repeats it raw: an ID that may hold a password (a URL with user
// information, whole or cut short by a "/" in the password), an oversized
// one or one with control characters gets its own refusal, which sends no
// request and quotes nothing of the value; a failure of the API after a
// valid ID quotes only what the parse proved (the id, the canonical domain).
func TestImportState_neverQuotesRawID(t *testing.T) {
	t.Parallel()
	const secret = "Pw-2024-import-secret"
	for _, tc := range []struct {
		id, want string
	}{
		{"https://admin:" + secret + "@example.com/", "Invalid Import ID"},
		{"admin:" + secret + "@example.com", "Invalid Import ID"},
		{"https://admin:2024/" + secret + "@example.com", "Invalid Import ID"},
		{"example.com/" + secret + "@x", "Invalid Import ID"},
		{strings.Repeat("a", 300) + secret + ".example.com", "Invalid Import ID"},
		{"ex\x00" + secret + ".example.com", "Invalid Import ID"},
		{"Example.com " + secret, "Invalid Import ID"},
	} {
		text, requests := importWithFailingAPI(t, tc.id)
		if strings.Contains(text, secret) || strings.Contains(text, "2024") {
			t.Errorf("import %q: a message repeats the ID: %s", tc.id, text)
		}
		if !strings.Contains(text, tc.want) {
			t.Errorf("import %q: want %q, got: %s", tc.id, tc.want, text)
		}
		if requests != 0 {
			t.Errorf("import %q: %d requests reached the API before the ID was refused", tc.id, requests)
		}
	}
	for id, want := range map[string]string{
		"12":          "Could not import the website with id 12",
		"example.com": `Could not import the website "example.com"`,
	} {
		text, requests := importWithFailingAPI(t, id)
		if !strings.Contains(text, want) || requests == 0 {
			t.Errorf("import %q: want %q after asking the API, got (%d requests): %s", id, want, requests, text)
		}
	}
}

// Import by id takes an id as the identity, the data sources and the export
// action take it: a positive whole number without sign or leading zeros.
// "+12" and "012" are refused, proposing 12, with no request sent.
func TestImportTarget_idAsEverywhere(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"+12", "012", "-12", "0", "+0", "00", "99999999999999999999"} {
		id, problem := importTarget(raw)
		if id != 0 || problem == "" {
			t.Errorf("importTarget(%q) = %d, %q: want a refusal", raw, id, problem)
			continue
		}
		if isWebsiteID(raw) || !validateString(websiteIDValidator(), path.Root("website_id"), raw).HasError() {
			t.Errorf("%q: the import refuses it, but the website_id validator accepts it", raw)
		}
		if (raw == "+12" || raw == "012") && !strings.Contains(problem, "import by 12") {
			t.Errorf("importTarget(%q): the refusal does not propose 12: %s", raw, problem)
		}
	}
	if id, problem := importTarget("12"); id != 12 || problem != "" {
		t.Errorf("importTarget(\"12\") = %d, %q", id, problem)
	}
	text, requests := importWithFailingAPI(t, "012")
	if requests != 0 || !strings.Contains(text, "Invalid Import ID") {
		t.Errorf("import \"012\": %d requests, %s", requests, text)
	}
}

// A website stored in Unicode or with a trailing dot (made in the web
// interface) is imported by its domain as stored: the import looks it up
// literally. A form the server would have rewritten names the stored one.
func TestImportTarget_storedOnlyDomains(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"bücher.example", "shop.example.com.", "bücher.example.", "例え.jp"} {
		if id, problem := importTarget(raw); id != 0 || problem != "" {
			t.Errorf("importTarget(%q) = %d, %q: want an import by domain", raw, id, problem)
		}
	}
	if _, problem := importTarget("Bücher.Example"); !strings.Contains(problem, `Import by "bücher.example"`) {
		t.Errorf("importTarget(\"Bücher.Example\"): %q", problem)
	}
	if _, problem := importTarget("example.com.."); problem == "" {
		t.Error("importTarget(\"example.com..\") takes a domain the server refuses")
	}
}

// An import by the ASCII form of a domain that a website may have in
// Unicode names the Unicode form when none is found.
func TestOtherFormHint_namesTheUnicodeForm(t *testing.T) {
	t.Parallel()
	if h := otherFormHint("xn--bcher-kva.example"); !strings.Contains(h, `"bücher.example"`) {
		t.Errorf("otherFormHint(xn--bcher-kva.example) = %q", h)
	}
	// Of a valid ASCII domain, only its trailing-dot form (a domain the
	// server refuses has none).
	if h := otherFormHint("example.com"); h != ` (a website made in the web interface may be stored as "example.com.")` {
		t.Errorf("otherFormHint(example.com) = %q", h)
	}
	if h := otherFormHint("example.com.."); h != "" {
		t.Errorf("otherFormHint(example.com..) = %q", h)
	}
}
