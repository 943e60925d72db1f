package client_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestUpdateWebsiteRetriesA500OnAnExistingWebsite(t *testing.T) {
	t.Parallel()
	srv, c, log := faultyEnv(t, emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{500}, MaxFaults: 2, Methods: []string{"PUT"}}, emulator.Options{})
	w := srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "example.com"})
	got, err := c.UpdateWebsite(ctx(t), w.ID, siteInput("example.com"))
	if err != nil || got.PrivacyValue() != client.PrivacyPrivate {
		t.Fatalf("got %+v, err %v\n%s", got, err, log.all())
	}
	if st := srv.Stats(); st.ByRoute["PUT /api/v1/websites/{id}"] != 1 || st.ByRoute["GET /api/v1/websites/{id}"] != 2 {
		t.Errorf("routes %v", st.ByRoute)
	}

	// An update of a deleted website is a 500 on the real server: reported
	// as not found, without retrying.
	_, err = c.UpdateWebsite(ctx(t), 999, siteInput("example.com"))
	if !errors.Is(err, client.ErrNotFound) {
		t.Errorf("deleted: err = %v", err)
	}
	// A persistent 500 on an existing website ends after the retries.
	if err := srv.SetFaults(&emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{500}, Methods: []string{"PUT"}}); err != nil {
		t.Fatal(err)
	}
	_, err = c.UpdateWebsite(ctx(t), w.ID, siteInput("example.com"))
	if !errors.Is(err, client.ErrServer) {
		t.Errorf("persistent 500: err = %v", err)
	}
}

// An older build answers an update "not found"; when the website is there
// all the same, that is not a deletion.
func TestUpdateWebsiteNotFoundButExists(t *testing.T) {
	t.Parallel()
	_, u := serve(t, answer(404, apiNotFound), answer(200, emptyList), answer(200, recordJSON))
	c := newClient(t, u, "key")
	_, err := c.UpdateWebsite(ctx(t), 7, client.WebsiteInput{Domain: "example.com"})
	if err == nil || errors.Is(err, client.ErrNotFound) || !strings.Contains(err.Error(), "reading the website right after found it") {
		t.Errorf("err = %v, want a failure that is not ErrNotFound", err)
	}
}
