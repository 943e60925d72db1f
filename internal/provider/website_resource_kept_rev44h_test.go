package provider

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// Review rev44h (of f104544): the kept-restore errors say what the read
// showed, for one kept website. Two websites kept with one domain (the
// application has no unique index on domains: a duplicate an earlier race
// left, both managed, both skip_destroy) get the create's own error in
// front of the kept sentence, as before the fix. Here b (depends on a) is
// removed from the configuration and a is tainted: the destroys keep both
// (b first, then a), and a's replacement's POST gets a 500. The lookup finds
// the two kept websites, made before this create: a DuplicateCreateError.
// The error then says "Website Created Twice ... a create that outlived its
// time limit and was sent again stored the website twice ... Delete the
// extra website in the web interface": this create stored nothing (both
// websites held the domain before it was sent), and the user is told to
// delete one of two websites that were managed a moment ago, with their
// statistics.
func TestAccWebsite_rev44hTwoKeptDuplicateSaysDeleteExtra(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores; seeds two websites with one domain")
	var on atomic.Bool
	failPost := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if on.Load() && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/api/v1/websites") {
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(http.StatusInternalServerError)
				_, _ = rw.Write([]byte(`{"message":"Server Error"}`))
				return
			}
			next.ServeHTTP(rw, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(failPost))
	domain := env.Domain("two-kept-dup")
	old := time.Now().Add(-time.Hour)
	id1 := env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old}).ID
	id2 := env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old}).ID
	w := acctest.NewWorkdir(t)
	a := fmt.Sprintf(`resource "analytics_website" "a" {
  domain       = %q
  skip_destroy = true
}
`, domain)
	w.Write("main.tf", env.ProviderBlock("max_retries = 0")+a+fmt.Sprintf(`
import {
  to = analytics_website.a
  id = "%d"
}
import {
  to = analytics_website.b
  id = "%d"
}
resource "analytics_website" "b" {
  domain       = %q
  skip_destroy = true
  depends_on   = [analytics_website.a]
}
`, id1, id2, domain))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.ProviderBlock("max_retries = 0")+a)
	w.MustRun(0, "taint", "analytics_website.a")
	w.MustRun(0, "plan", "-out=tfplan")
	on.Store(true)
	out, code := w.Run("apply", "-no-color", "tfplan")
	on.Store(false)
	all, err := env.TestWebsites(env.Key)
	if err != nil {
		t.Fatal(err)
	}
	var held []int64
	for _, ws := range all {
		if ws.Domain == domain {
			held = append(held, ws.ID)
		}
	}
	if len(held) != 2 {
		t.Fatalf("the server holds %v with the domain, want the two kept websites %d and %d", held, id1, id2)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "kept 2 websites") {
		t.Fatalf("the apply (exit code %d) did not keep both websites (the scenario did not happen):\n%s", code, out)
	}
	for _, lie := range []string{"stored the website twice", "Delete the extra website", "may still have stored one"} {
		if strings.Contains(flat, lie) {
			t.Errorf("websites %d and %d were kept by this apply and held the domain before the create; nothing "+
				"was stored, yet the error (exit code %d) says %q:\n%s", id1, id2, code, lie, out)
		}
	}
	for _, id := range held {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
	}
}
