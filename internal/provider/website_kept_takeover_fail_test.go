package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestAccWebsite_keptTakeOverFails: a tainted website with skip_destroy =
// true whose configuration now changes a setting (email_reports). The plan
// warns that the create takes the kept website back and updates it. When
// the take-over cannot be made, the website, which the apply kept on the
// server a moment ago, left the state (review rev44an): the installation in
// maintenance mode (every request 503; the take-over gets no owner), only
// the take-over's update throttled (429), or the create's outcome unknown
// (a 500 to the POST, 503 to the lookups; the kept website still answers
// its read, so no new website can have been stored). It is put back as
// kept now, as with unchanged settings
// (TestAccWebsite_keptRestoredWhenCreateInMaintenance,
// TestAccWebsite_keptRestoredAfterUnknownOutcomeNoImportAdvice), and the
// error no longer says that its replacement cannot succeed (review
// rev44ap): the next apply takes it over.
func TestAccWebsite_keptTakeOverFails(t *testing.T) {
	acctest.NeedsEmulator(t, "puts the installation into maintenance mode and fails requests")
	acctest.Parent(t)
	for _, tc := range []struct {
		name string
		// wrap fails requests while on is set; nil: maintenance mode.
		wrap func(on *atomic.Bool) func(http.Handler) http.Handler
	}{
		{"maintenance", nil},
		{"update throttled", func(on *atomic.Bool) func(http.Handler) http.Handler { return throttleWhen(on, isPut, "60") }},
		{"unknown outcome", unknownCreates},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var on atomic.Bool
			opts := []acctest.Option{acctest.Emulator(planUsers(t, keyUnlimitedPlan))}
			if tc.wrap != nil {
				opts = append(opts, acctest.Wrap(tc.wrap(&on)))
			}
			env := acctest.New(t, opts...)
			w := acctest.NewWorkdir(t)
			domain := env.Domain("kept-takeover-fails")
			config := func(email bool) string {
				return env.ProviderBlock("max_retries = 0") + fmt.Sprintf("resource \"analytics_website\" \"test\" {\n"+
					"  domain        = %q\n  skip_destroy  = true\n  email_reports = %t\n}\n", domain, email)
			}
			w.Write("main.tf", config(false))
			w.MustRun(0, "apply", "-auto-approve")
			id := env.MustWebsite(t, domain).ID
			w.MustRun(0, "taint", websiteAddr)
			w.Write("main.tf", config(true))
			w.MustRun(0, "plan", "-out=tfplan")
			on.Store(true)
			env.SetMaintenance(tc.wrap == nil)
			out, code := w.Run("apply", "-no-color", "tfplan")
			env.SetMaintenance(false)
			on.Store(false)
			if stateIDs(t, w.Read("terraform.tfstate"))["test"] != fmt.Sprint(id) {
				t.Fatalf("the website %d is on the server but left the state (exit %d):\n%s", id, code, out)
			}
			// The next apply, the server answering again, takes it over.
			next, ncode := w.Run("apply", "-auto-approve", "-no-color")
			if flat := strings.Join(strings.Fields(out), " "); ncode != 0 || !strings.Contains(next, "Website Taken Over") ||
				strings.Contains(flat, "cannot succeed while it holds the domain") {
				t.Errorf("want the error to say that the next apply takes the website over, and that apply to do "+
					"so (exit %d):\nfirst apply:\n%s\nnext apply:\n%s", ncode, out, next)
			}
			wantKeptInState(t, env, w, domain, id, next, ncode, "the next apply")
		})
	}
}

func isPut(r *http.Request) bool { return r.Method == http.MethodPut || r.Method == http.MethodPatch }

// TestAccWebsite_keptTakeOverSelf: a tainted website with skip_destroy =
// true and privacy = "password" (the password set by Terraform) whose
// configuration now says privacy = "public": the replacement cannot
// succeed, and the create takes the kept website back and updates it. The
// take-over once sent the create's input, with no prior state, so the
// server kept the old password, ready to protect the page again with a
// password the configuration dropped, and its warning said the website was
// "removed from another resource's state" and advised a moved block, which
// has nothing to move (review rev44an). It sends an update from the kept
// state now, as a moved block would, and says whose the website was.
func TestAccWebsite_keptTakeOverSelf(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-takeover-self")
	config := func(privacy, password string) string {
		return env.Config(fmt.Sprintf("resource \"analytics_website\" \"test\" {\n  domain       = %q\n"+
			"  skip_destroy = true\n  privacy      = %q\n%s}\n", domain, privacy, password))
	}
	w.Write("main.tf", config("password", "  password     = \"pw-rev44an-1\"\n"))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	t.Cleanup(func() { _ = env.API(env.Key).DeleteWebsite(t.Context(), id) })
	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", config("public", ""))
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if stateIDs(t, w.Read("terraform.tfstate"))["test"] != fmt.Sprint(id) {
		t.Fatalf("the website %d left the state (exit %d):\n%s", id, code, out)
	}
	if pout, pcode := w.Run("plan", "-detailed-exitcode", "-no-color"); pcode != 0 {
		t.Errorf("the plan after the take-over is not empty (exit %d):\n%s", pcode, pout)
	}
	if flat := strings.Join(strings.Fields(out), " "); strings.Contains(flat, "another resource's state") ||
		strings.Contains(flat, "use a moved block") {
		t.Errorf("the take-over of this resource's own tainted website says it was removed from another "+
			"resource's state, and to use a moved block:\n%s", out)
	}
	if got := env.MustWebsite(t, domain); got.PasswordSet {
		t.Errorf("after the take-over to privacy = \"public\", the server still holds the password Terraform set "+
			"(an update, or a moved block, clears it): %+v", got)
	}
}
