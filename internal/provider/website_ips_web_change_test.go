package provider

import (
	"slices"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The update compared the server's exclude_ips
// with the state through the bulk reader, whose cache (5 s) also holds what
// the apply's own lookups read: the held-domain check of a create planned
// again at apply time lists the websites. A change the web interface made
// after that list and before the update was not seen, and the update wrote
// the state's list over it, with no warning. An update now sends the list
// only when its plan changes it or writes it back without repeats, and the
// write-back reads the website afresh. (b depends on a, so b's update
// starts after a's create, within the cache's 5 s of its list read.)
func TestAccWebsite_updateReadsAfreshKeepsWebChange(t *testing.T) {
	acctest.NeedsEmulator(t, "changes a website right after the apply's list request")
	for _, tc := range []struct {
		name    string
		repeats bool // the server holds the list with a repeat: the plan writes it back
		warning string
	}{
		{"update for another reason", false, "The update left it out"},
		{"write-back without repeats", true, "The update did not write it back without repeats"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The first list read of the apply: the web interface adds an
			// address right after it.
			env, change := newListReadChange(t, "1.2.3.4\n5.6.7.8")
			b, a := env.Domain("stale-b"), env.Domain("stale-a")
			w := acctest.NewWorkdir(t)
			w.Write("main.tf", updateAfterCreateConfig(env, b, a, "1.2.3.4", true, false))
			w.MustRun(0, "apply", "-auto-approve")
			change.target.Store(env.MustWebsite(t, b).ID)
			if tc.repeats {
				env.UpdateWebsite(change.target.Load(), func(w *emulator.Website) { w.ExcludeIPs = "1.2.3.4\n1.2.3.4" })
			}
			// The plan: update b (exclude_bots, and the write-back) and
			// create a.
			w.Write("main.tf", updateAfterCreateConfig(env, b, a, "1.2.3.4", false, true))
			w.MustRun(0, "plan", "-out=tfplan")
			out, code := change.apply(t, w)
			got := env.MustWebsite(t, b)
			if !slices.Contains(got.ExcludeIPs, "5.6.7.8") {
				t.Errorf("exclude_ips is %q on the server after an update whose plan did not change it: the address "+
					"5.6.7.8 the web interface added after the plan (after the apply's list read, before the update) "+
					"was dropped (exit code %d):\n%s", got.ExcludeIPs, code, out)
			}
			if got.ExcludeBotsValue() {
				t.Errorf("exclude_bots is still true: the update did not run (exit code %d):\n%s", code, out)
			}
			flat := strings.Join(strings.Fields(out), " ")
			if code != 0 || !strings.Contains(flat, "exclude_ips Changed Since the Plan") || !strings.Contains(flat, tc.warning) {
				t.Errorf("want a successful apply that warns %q (exit code %d):\n%s", tc.warning, code, out)
			}
			w.DestroyIfLive()
		})
	}
}

// With -refresh=false the plan has no refresh,
// so a list the web interface changed long before the plan is left out by
// an update whose plan does not change exclude_ips (held: the server keeps
// it), but the warning says it "changed on the server after this plan's
// refresh", a refresh that never ran; what the user needs is to plan with
// a refresh.
func TestAccWebsite_noRefreshWebChangeWarningAdvisesRefresh(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("norefresh-ips")
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", ipsBotsConfig(env, domain, "1.2.3.4", true))
	w.MustRun(0, "apply", "-auto-approve")
	env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = []string{"1.2.3.4", "5.6.7.8"} })
	w.Write("main.tf", ipsBotsConfig(env, domain, "1.2.3.4", false))
	out, code := w.Run("apply", "-auto-approve", "-refresh=false", "-no-color")
	flat := strings.Join(strings.Fields(out), " ")
	if got := env.MustWebsite(t, domain).ExcludeIPs; !slices.Contains(got, "5.6.7.8") {
		t.Errorf("exclude_ips is %q after an update whose plan did not change it (exit code %d):\n%s", got, code, out)
	}
	if !strings.Contains(flat, "exclude_ips Changed Since the Plan") {
		t.Fatalf("no warning (exit code %d):\n%s", code, out)
	}
	if strings.Contains(flat, "after this plan's refresh") {
		t.Errorf("with -refresh=false the warning names a refresh that did not run (exit code %d):\n%s", code, out)
	}
	w.DestroyIfLive()
}
