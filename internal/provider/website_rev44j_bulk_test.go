package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The write-back of a folded exclude_ips forgets
// the bulk reader's record of the website before its identity check, so
// that the check reads it afresh (a list read earlier in the apply may be
// 5 s old, and the write-back must not undo a web change made since). That
// costs one individual read per website written back, on top of an
// update's budget (TestAccWebsite_bulk: one PUT each, and the sweeps of the
// plan's refresh and of the apply's identity checks); the guide on
// performance says so. This test holds the write-back to that cost.
func TestAccWebsite_bulkWriteBackBudget(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites (client.BulkReader)")
	acctest.NeedsEmulator(t, "counts the emulator's requests per operation with the throttle off; stores repeats")
	const n = 40
	env := acctest.New(t, acctest.Emulator(emulator.Options{RateLimit: 100000, RateWindow: time.Second}))
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.Config(fmt.Sprintf(`
resource "analytics_website" "bulk" {
  count       = %d
  domain      = "wb-${count.index}.example.com"
  exclude_ips = ["1.2.3.4"]
}
`, n)))
	w.MustRun(0, "apply", "-auto-approve")
	// The web interface stores every list with a repeated line.
	for _, ws := range env.Websites() {
		env.UpdateWebsite(ws.ID, func(x *emulator.Website) { x.ExcludeIPs = "1.2.3.4\n1.2.3.4" })
	}
	env.ResetStats()
	w.MustRun(0, "plan", "-out=bulk.tfplan")
	planStats := env.Stats()
	t.Logf("plan: by route %v", planStats.ByRoute)
	env.ResetStats()
	w.MustRun(0, "apply", "bulk.tfplan")
	s := env.Stats()
	t.Logf("apply: by route %v", s.ByRoute)
	for _, ws := range env.Websites() {
		if ws.ExcludeIPs != "1.2.3.4" {
			t.Fatalf("website %d holds %q after the write-back", ws.ID, ws.ExcludeIPs)
		}
	}
	account := s.ByRoute["GET /api/v1/account"]
	if got := s.ByRoute["PUT /api/v1/websites/{id}"]; got != n {
		t.Errorf("%d PUT requests for the write-back of %d websites, want one each (by route: %v)", got, n, s.ByRoute)
	}
	if got := s.ByRoute["GET /api/v1/websites/{id}"]; got > n {
		t.Errorf("%d individual reads for the write-back of %d websites, want at most one each (by route: %v)",
			got, n, s.ByRoute)
	}
	// One PUT and one read each, and the sweeps: TestAccWebsite_bulk's
	// update budget (n+2*3 for the plan and the apply together) and n reads.
	if got := s.Total - account + planStats.Total - planStats.ByRoute["GET /api/v1/account"]; got > 2*n+2*3 {
		t.Errorf("the write-back of %d websites cost %d requests besides GET /account (plan and apply), want at "+
			"most %d (apply by route: %v)", n, got, 2*n+2*3, s.ByRoute)
	}
	w.DestroyIfLive()
}
