package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Review of issue 44, defect 3: ways the state still loses a website that
// skip_destroy kept, or a resource adopts one it never held.

// A tainted website whose state has skip_destroy = true, and whose
// configuration sets skip_destroy = false in the same plan (the user wants
// it replaced for real). Terraform destroys the old object with its prior
// state, so the destroy half only removes it from the state; the create of
// the same domain is refused. The plan's create has skip_destroy = false,
// so it looks nothing up and says nothing; at apply, sameConfiguration
// sees skip_destroy differ and does not put the website back: it leaves
// the state, which is defect 3 as filed. The plan must say the
// replacement cannot succeed, or the apply must keep the website.
func TestAccWebsite_reviewKeptTaintedSkipDestroyTurnedOff(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-off")
	config := func(skip bool) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain       = %q\n  skip_destroy = %t\n", domain, skip)))
	}
	w.Write("main.tf", config(true))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID

	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", config(false))
	var said bool
	for _, d := range w.PlanDiags() {
		if strings.Contains(d.Detail, fmt.Sprint(id)) {
			said = true
		}
	}
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	state := w.Read("terraform.tfstate")
	held := strings.Contains(state, fmt.Sprintf(`"id": "%d"`, id))
	if got := env.MustWebsite(t, domain).ID; got == id && !held {
		t.Errorf("the website %d is on the server but left the state (apply exit code %d; the plan warned: %t):\n%s",
			id, code, said, out)
	}
	if code != 0 && !said {
		t.Errorf("the apply failed (exit code %d) but its plan said nothing of the website %d holding the domain:\n%s",
			code, id, out)
	}
	// Clean up: the website may still be on the server.
	if ws, err := env.FindWebsite(env.Key, domain); err == nil && ws != nil {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), ws.ID)
	}
}
