package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_identityReadFailsNoWrite: the identity check's read fails
// (503, no retries): a destroy and an update with -refresh=false fail
// without writing, and the state keeps the website.
func TestAccWebsite_identityReadFailsNoWrite(t *testing.T) {
	acctest.NeedsEmulator(t, "fails the identity check's read")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("idfail")
	cfg := func(extra string) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain = %q
  %s
}
`, domain, extra)
	}
	s.W.Write("main.tf", cfg(""))
	s.W.MustRun(0, "apply", "-auto-approve")
	id := s.StateID(t, "test")
	if err := env.SetFaults(&emulator.Faults{Methods: []string{"GET"}, ErrorRate: 1, ErrorStatuses: []int{503}}); err != nil {
		t.Fatal(err)
	}
	env.ResetStats()
	out, code := s.W.Run("destroy", "-auto-approve", "-refresh=false")
	if code != 1 || env.Writes() != 0 {
		t.Errorf("destroy -refresh=false with a failing read: exit %d, %d writes\n%s", code, env.Writes(), out)
	}
	s.W.Write("main.tf", cfg("email_reports = true"))
	out, code = s.W.Run("apply", "-auto-approve", "-refresh=false")
	if code != 1 || env.Writes() != 0 {
		t.Errorf("update -refresh=false with a failing read: exit %d, %d writes\n%s", code, env.Writes(), out)
	}
	if err := env.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if s.StateID(t, "test") != id {
		t.Errorf("state lost the website")
	}
	if _, ok := env.Website(id); !ok {
		t.Errorf("website gone")
	}
	s.W.MustRun(0, "apply", "-auto-approve")
	s.Destroy(t)
}
