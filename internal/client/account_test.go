package client_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
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

// The plan's features are typed: numbers (-1 unlimited) and switches, sent
// as 1/0 by the application and tolerated as booleans or strings; a feature
// left out, or of a type that is neither, is nil.
func TestAccountPlanFeatures(t *testing.T) {
	t.Parallel()
	three, _ := emulator.PlanNamed("three-websites")
	noEmail, _ := emulator.PlanNamed("no-email-reports")
	srv := emulator.NewServer(t, emulator.Options{Users: []emulator.User{{Key: "three", Plan: &three}, {Key: "noemail", Plan: &noEmail}}})
	a, err := newClient(t, srv.URL, "three").Account(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	f := a.Plan.Features
	if a.Plan.ID != 3 || a.Plan.Name != "Starter" || a.Locale != "en" || a.Timezone != "UTC" || a.CreatedAt != "2024-01-01T00:00:00.000000Z" ||
		*f.Websites != 3 || *f.Pageviews != 10000 || !*f.API || !*f.EmailReports || !*f.DataExport {
		t.Errorf("three websites: %+v %+v", a, f)
	}
	if n, ok := a.WebsiteLimit(); n != 3 || !ok {
		t.Errorf("WebsiteLimit() = %d, %v", n, ok)
	}
	a, err = newClient(t, srv.URL, "noemail").Account(ctx(t))
	if err != nil || *a.Plan.Features.EmailReports {
		t.Errorf("no e-mail reports: %+v, %v", a, err)
	}

	raw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"id":"7","name":"N","email":"e","plan":{"id":2,"name":"P","features":` +
			`{"websites":"-1","pageviews":[1],"api":true,"email_reports":"0"}}},"status":200}`))
	}))
	t.Cleanup(raw.Close)
	a, err = newClient(t, raw.URL, "k").Account(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	f = a.Plan.Features
	if a.ID != 7 || *f.Websites != client.Unlimited || f.Pageviews != nil || !*f.API || *f.EmailReports || f.DataExport != nil {
		t.Errorf("loose types: %+v %+v", a, f)
	}
	if _, ok := a.WebsiteLimit(); ok {
		t.Error("an unlimited plan reports a limit")
	}
}

// PHP writes an empty array as [], so a plan without features (or a user
// without a plan, on a customised build) may come as [] rather than {} or
// null: the account still reads, with no feature known, since the owner
// checks of every create and import need only the user.
func TestAccountPlanNotAnObject(t *testing.T) {
	t.Parallel()
	for _, plan := range []string{
		`{"id":2,"name":"P","features":[]}`,
		`{"id":2,"name":"P","features":null}`,
		`{"id":2,"name":"P","features":"none"}`,
		`[]`,
		`"Default"`,
	} {
		raw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"data":{"id":7,"name":"N","email":"e@example.test","plan":` + plan + `},"status":200}`))
		}))
		a, err := newClient(t, raw.URL, "k").Account(ctx(t))
		raw.Close()
		if err != nil {
			t.Errorf("plan %s: %v", plan, err)
			continue
		}
		if a.ID != 7 || a.Name != "N" || a.Email != "e@example.test" || a.Plan.Features != (client.PlanFeatures{}) {
			t.Errorf("plan %s: %+v", plan, a)
		}
		if _, ok := a.WebsiteLimit(); ok {
			t.Errorf("plan %s: a limit", plan)
		}
	}
}

// A key the server refuses (401) or whose plan has no API access (403) gets
// the same answer all run long: it is asked once, and every caller (the
// owner checks and the plan-time checks of each website) gets the error.
func TestAccountRefusedOnce(t *testing.T) {
	t.Parallel()
	srv := emulator.NewServer(t, emulator.Options{Users: []emulator.User{{Key: "noapi", NoAPIAccess: true}}})
	for key, want := range map[string]error{"noapi": client.ErrForbidden, "wrong": client.ErrUnauthenticated} {
		c := newClient(t, srv.URL, key)
		before := srv.Stats().ByRoute["GET /api/v1/account"]
		for range 3 {
			if _, err := c.Account(ctx(t)); !errors.Is(err, want) {
				t.Fatalf("key %s: %v, want %v", key, err, want)
			}
		}
		if n := srv.Stats().ByRoute["GET /api/v1/account"] - before; n != 1 {
			t.Errorf("key %s: %d requests, want 1", key, n)
		}
	}
}
