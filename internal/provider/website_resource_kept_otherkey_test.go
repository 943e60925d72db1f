package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// The restore takes
// a 404 to the kept website's read as proof that it is gone. But the API
// answers 404 for another user's website too. A tainted website kept by
// skip_destroy, applied with another user's key (a saved plan applied by a
// stage whose ANALYTICS_API_KEY differs, or -refresh=false as here): the
// create is refused (domains are unique across all users), the read of
// the kept website answers 404 to this key, and the website leaves the
// state, though it is on the server, untouched. Its remembered owner (the
// private state the kept website carries) is not this key's user: the 404
// proves nothing, as the refresh's owner check knows ("Website Belongs to
// Another User ... the state was kept as it is").
func TestAccWebsite_keptOtherKeyNotFoundStaysInState(t *testing.T) {
	acctest.NeedsEmulator(t, "needs two users of one installation")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)))
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-other-key")
	res := fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
}
`, domain)
	w.Write("main.tf", env.ProviderBlock("max_retries = 0")+res)
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", env.ProviderBlockAt(env.URL, keyThreePlan, "max_retries = 0")+res)
	out, code := w.Run("apply", "-no-color", "-refresh=false", "-auto-approve")
	wantKeptInState(t, env, w, domain, id, out, code, "a create with another user's key")
}

// The same through a pipeline: the plan stage and the apply stage take the
// key from ANALYTICS_API_KEY, and the apply stage's is another user's. The
// saved plan (made with the right key, its refresh fine) replaces the
// tainted website; at apply the kept website's read answers 404 to the
// other key, and the website leaves the state.
func TestAccWebsite_keptSavedPlanOtherKeyStaysInState(t *testing.T) {
	acctest.NeedsEmulator(t, "needs two users of one installation")
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)))
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-saved-other-key")
	w.Write("main.tf", fmt.Sprintf(`provider "analytics" {
  base_url    = %q
  max_retries = 0
}
resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
}
`, env.URL, domain))
	w.Env = []string{"ANALYTICS_API_KEY=" + keyUnlimitedPlan}
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.MustRun(0, "plan", "-out=tfplan")
	w.Env = []string{"ANALYTICS_API_KEY=" + keyThreePlan}
	out, code := w.Run("apply", "-no-color", "tfplan")
	wantKeptInState(t, env, w, domain, id, out, code, "a saved plan applied with another user's key")
}
