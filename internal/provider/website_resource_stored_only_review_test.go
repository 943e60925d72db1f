package provider

import (
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// A plan that creates a new website in Unicode fails with "Domain Records
// No Pageviews". It must not also carry the adoption warning meant for an
// existing website ("A website's domain cannot change. ... export them
// first ...: deleting the website deletes them"): there is no website, no
// statistics and nothing to delete. Today the domain validator adds that
// warning (twice) to every configuration naming such a domain.
func TestAccWebsite_newUnicodeDomainHasNoAdoptionWarning(t *testing.T) {
	acctest.NeedsEmulator(t, "plans against an empty emulator")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	w.Write("main.tf", env.ProviderBlock()+`
resource "analytics_website" "n" {
  domain = "neu-bücher.example"
}
`)
	out, code := w.Run("plan", "-no-color")
	if code == 0 || !strings.Contains(out, "Error: Domain Records No Pageviews") {
		t.Fatalf("exit code %d, no refusal:\n%s", code, out)
	}
	if strings.Contains(out, "Warning: Website Records No Pageviews") || strings.Contains(out, "deleting the website deletes them") {
		t.Errorf("a plan creating a website warns as if it existed:\n%s", out)
	}
}
