package provider

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// customEvent records a custom event on the home page of domain, as the
// tracking script's pa.track does: no pageview is recorded with it.
func (s *statsEnv) customEvent(t *testing.T, domain, name string) {
	t.Helper()
	base, err := client.ParseBaseURL(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{"page": {"https://" + domain + "/"}, "event[name]": {name}}
	endpoint := strings.TrimSuffix(base.String(), "/api/v1") + "/api/event"
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", acctest.BrowserUA)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if string(body) != "200" {
		t.Fatalf("custom event %q on %s: tracking answered %q", name, domain, body)
	}
}

// A website whose only statistics are custom events loses them too: the
// destroy plan warns.
func TestAccWebsiteStatistics_eventsOnlyWarn(t *testing.T) {
	s := newStatsEnv(t, emulator.Options{})
	const domain = "tf-acc-events.example.com"
	s.Apply(websiteBlock("main", domain, ""))
	s.customEvent(t, domain, "signup")
	s.ResetStats()
	diags := s.W.PlanDiags("-destroy")
	loss := withSummary(diags, lossDestroy)
	if len(loss) != 1 || !strings.Contains(loss[0].Detail, "no pageviews, but 1 kind of custom event") {
		t.Fatalf("want one destroy warning naming the custom events, got %+v", diags)
	}
	if n := s.statsRequests(); n != 2 {
		t.Errorf("%d statistics requests, want 2 (pageviews, then custom events)", n)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
}
