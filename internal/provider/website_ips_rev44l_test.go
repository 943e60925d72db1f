package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Review rev44l (of 48da5e6): a change of skip_destroy alone was applied
// without a request; it now writes back a followed list with repeats, by a
// full update that sends every field the configuration manages, from the
// plan. The plan shows no change to exclude_bots (only the write-back's
// warning and updated_at), yet a change of exclude_bots made in the web
// interface after the plan is undone by the apply, without a word. The
// API leaves a field it is not sent as stored (the update rules), and the
// update already leaves exclude_ips out so as not to undo what the plan
// did not show; the write-back's other fields undo it.
func TestAccWebsite_rev44lWriteBackUndoesLaterWebChangeOfOtherField(t *testing.T) {
	acctest.NeedsEmulator(t, "stores a repeated exclude_ips line and changes a website after the plan")
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	domain := env.Domain("wb-other-field")
	w := acctest.NewWorkdir(t)
	hcl := func(skip bool) string {
		return env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  exclude_ips  = ["1.2.3.4"]
  exclude_bots = true
  skip_destroy = %t
}
`, domain, skip))
	}
	w.Write("main.tf", hcl(false))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	env.UpdateWebsite(id, func(x *emulator.Website) { x.ExcludeIPs = "1.2.3.4\n1.2.3.4" })
	w.Write("main.tf", hcl(true))
	plan := w.MustRun(0, "plan", "-out=tfplan", "-no-color")
	// After the plan, the web interface turns exclude_bots off.
	off := 0
	env.UpdateWebsite(id, func(x *emulator.Website) { x.ExcludeBots = &off })
	out := w.MustRun(0, "apply", "-no-color", "tfplan")
	stored, _ := env.Website(id)
	if stored.ExcludeBots == nil || *stored.ExcludeBots != 0 {
		t.Errorf("exclude_bots is %v on the server after an apply whose plan changed only skip_destroy (and wrote "+
			"exclude_ips back): the web interface's change made after the plan was undone\nplan:\n%s\napply:\n%s",
			shownInt(stored.ExcludeBots), strings.TrimSpace(plan), strings.TrimSpace(out))
	}
	w.Write("main.tf", hcl(false))
	w.MustRun(0, "apply", "-auto-approve")
	w.MustRun(0, "destroy", "-auto-approve")
}

func shownInt(p *int) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprint(*p)
}
