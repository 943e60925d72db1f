package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// An update whose answer is lost after the server applied it (the
// connection reset once the change is committed) fails; the server then
// holds the new exclude_params and password, which no refresh can read.
// A configuration reverted to the old values must still plan a change,
// and the apply must bring the server back to them.
func TestAccWebsite_lostUpdateAnswer(t *testing.T) {
	acctest.NeedsEmulator(t, "loses the answer of an update after the server applied it")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("lost-update")
	config := func(param, password string) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain         = %q
  privacy        = "password"
  password       = %q
  exclude_params = [%q]
}
`, domain, password, param)
	}
	s.W.Write("main.tf", config("old", "old-password"))
	s.W.MustRun(0, "apply", "-auto-approve")

	if err := env.SetFaults(&emulator.Faults{Methods: []string{"PUT", "PATCH"}, ResetAfterRate: 1}); err != nil {
		t.Fatal(err)
	}
	s.W.Write("main.tf", config("new", "new-password"))
	if out, code := s.W.Run("apply", "-auto-approve"); code != 1 {
		t.Fatalf("the update whose answer is lost: exit code %d:\n%s", code, out)
	}
	if err := env.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if w, _ := env.WebsiteByDomain(domain); w.ExcludeParams != "new" || w.Password != "new-password" {
		t.Fatalf("the server did not apply the update: exclude_params %q", w.ExcludeParams)
	}

	s.W.Write("main.tf", config("old", "old-password"))
	if out, code := s.W.Run("plan", "-detailed-exitcode"); code != 2 {
		t.Errorf("the configuration reverted after a lost answer: plan exit code %d, want 2 (a change):\n%s", code, out)
	}
	s.W.MustRun(0, "apply", "-auto-approve")
	if w, _ := env.WebsiteByDomain(domain); w.ExcludeParams != "old" || w.Password != "old-password" {
		t.Errorf("after the apply: exclude_params %q, password changed back: %v", w.ExcludeParams, w.Password == "old-password")
	}
	s.W.MustRun(0, "plan", "-detailed-exitcode")
}

// TestAccWebsite_lostClearOfExcludeParams: exclude_params is
// removed from the configuration after Terraform set it, so the update
// clears it on the server ("clears it on the server once"). The update's
// answer never comes: the connection is reset before the server saw it,
// so nothing was applied. The state forgets exclude_params (null), which
// equals the configuration's null: no plan ever shows the clear again, and
// the server keeps excluding the parameter. After a lost answer the next
// plan must show the change again (or the provider must learn what the
// server holds, which the API cannot tell).
func TestAccWebsite_lostClearOfExcludeParams(t *testing.T) {
	acctest.NeedsEmulator(t, "resets the connection of an update before the server sees it")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("lost-clear")
	config := func(extra string) string {
		return env.ProviderBlock("max_retries = 0") + fmt.Sprintf(`
resource "analytics_website" "test" {
  domain = %q
  %s
}
`, domain, extra)
	}
	s.W.Write("main.tf", config(`exclude_params = ["utm_source"]`))
	s.W.MustRun(0, "apply", "-auto-approve")

	if err := env.SetFaults(&emulator.Faults{Methods: []string{"PUT", "PATCH"}, ResetBeforeRate: 1}); err != nil {
		t.Fatal(err)
	}
	s.W.Write("main.tf", config(""))
	if out, code := s.W.Run("apply", "-auto-approve"); code != 1 {
		t.Fatalf("the update whose answer is lost: exit code %d:\n%s", code, out)
	}
	if err := env.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if w, _ := env.WebsiteByDomain(domain); w.ExcludeParams != "utm_source" {
		t.Fatalf("the server applied the update (exclude_params %q): not the case under test", w.ExcludeParams)
	}
	out, code := s.W.Run("plan", "-detailed-exitcode")
	s.W.MustRun(0, "apply", "-auto-approve")
	if w, _ := env.WebsiteByDomain(domain); w.ExcludeParams != "" {
		t.Errorf("after a lost update that cleared exclude_params, the plan exits %d (no change) and the server "+
			"keeps exclude_params %q for good:\n%s", code, w.ExcludeParams, out)
	}
	s.DestroyIfLive(t)
}

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
