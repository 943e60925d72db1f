package client_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// TestSecrets_sentFieldNameKept: a 422 on a field the client sent keeps the
// field's name, even when a known secret starts with it. A website password
// such as "password123" (a common one) is registered; its first 8 bytes,
// "password", are the whole field name, which the redactor's cut rule (a
// prefix of 8 bytes or more before the end of the text) took for the
// password cut short: the field became "[REDACTED]", so the provider
// attached the server's message to no attribute and named no field.
func TestSecrets_sentFieldNameKept(t *testing.T) {
	t.Parallel()
	const pw = "password123"
	redact.Add(pw)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprint(w, `{"message":{"password":["The password must be at least 12 characters."]}}`)
	}))
	t.Cleanup(srv.Close)
	c := newClient(t, srv.URL, "fieldname-test-key")
	p := pw
	_, err := c.CreateWebsite(ctx(t), client.WebsiteInput{Domain: "pw.example.com", Password: &p})
	apiErr, ok := client.AsAPIError(err)
	if !ok || !errors.Is(err, client.ErrValidation) {
		t.Fatalf("error = %v, want a validation error", err)
	}
	if len(apiErr.Fields["password"]) != 1 {
		t.Errorf("fields = %q, want the message under \"password\"", apiErr.Fields)
	}
}
