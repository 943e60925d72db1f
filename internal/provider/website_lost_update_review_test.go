package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_lostUpdateThenLeavePasswordPrivacy: a password change
// whose answer is lost (the server applied it) forgets the password in the
// state; leaving "password" privacy afterwards must still clear the
// password Terraform set, as it does without the lost answer. Otherwise
// the server keeps it (changing privacy never clears it), and it protects
// the page again the day someone sets privacy 2 in the web interface.
func TestAccWebsite_lostUpdateThenLeavePasswordPrivacy(t *testing.T) {
	acctest.NeedsEmulator(t, "loses the answer of an update after the server applied it")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("lost-leave")
	withPassword := func(password string) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain   = %q
  privacy  = "password"
  password = %q
}
`, domain, password)
	}
	s.W.Write("main.tf", withPassword("old-password"))
	s.W.MustRun(0, "apply", "-auto-approve")

	if err := env.SetFaults(&emulator.Faults{Methods: []string{"PUT", "PATCH"}, ResetAfterRate: 1}); err != nil {
		t.Fatal(err)
	}
	s.W.Write("main.tf", withPassword("new-password"))
	if out, code := s.W.Run("apply", "-auto-approve"); code != 1 {
		t.Fatalf("the update whose answer is lost: exit code %d:\n%s", code, out)
	}
	if err := env.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if w, _ := env.WebsiteByDomain(domain); w.Password != "new-password" {
		t.Fatal("the server did not apply the update")
	}

	s.W.Write("main.tf", env.ProviderBlock()+fmt.Sprintf(`
resource "analytics_website" "test" {
  domain  = %q
  privacy = "public"
}
`, domain))
	s.W.MustRun(0, "apply", "-auto-approve")
	if w, _ := env.WebsiteByDomain(domain); w.Password != "" {
		t.Errorf("privacy public after a lost password change: the server still holds the password Terraform set")
	}
	s.DestroyIfLive(t)
}
