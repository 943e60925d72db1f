package client_test

import (
	"errors"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestAccount(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{Users: []emulator.User{{Key: emulator.DefaultAPIKey, Name: "Alice", Email: "a@example.test", WebsiteLimit: 5}}})
	c := newClient(t, srv.URL, emulator.DefaultAPIKey)
	for range 2 {
		a, err := c.Account(ctx(t))
		if err != nil || a.ID != 1 || a.Name != "Alice" || a.Email != "a@example.test" || a.Plan.Features.Websites == nil || *a.Plan.Features.Websites != 5 {
			t.Fatalf("Account = %+v, %v", a, err)
		}
	}
	if n := srv.Stats().Total; n != 1 {
		t.Errorf("%d requests, want 1 (the account is fetched once)", n)
	}
	if !c.APIVerified() {
		t.Error("an account answer proves the base URL")
	}

	old := emulator.NewServer(t, emulator.Options{NoAccountEndpoint: true})
	oc := newClient(t, old.URL, emulator.DefaultAPIKey)
	for range 2 {
		if _, err := oc.Account(ctx(t)); !errors.Is(err, client.ErrAccountUnsupported) {
			t.Fatalf("older build: %v", err)
		}
	}
	if n := old.Stats().Total; n != 2 {
		t.Errorf("older build: %d requests, want 2 (account, then the proof; then remembered)", n)
	}
}
