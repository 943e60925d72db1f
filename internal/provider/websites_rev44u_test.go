package provider

// Review rev44u of issue 44 (commit 4659085): the sweep of every website
// (analytics_websites without a search) serves the lookups by domain that
// follow, yet it is read page by page without a second read: a rename of a
// website of page 1 after page 1 was read, and one of page 2 before page 2
// was read, make a list of domains that never existed.

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// 150 websites (two pages of 100). x (page 1) and z (page 2) both hold one
// domain. Right before the provider reads page 2 of the list, another
// pipeline renames x, then z, away from it: the domain's holders were
// {x, z}, then {z}, then none. analytics_website by that domain, read after
// analytics_websites (whose sweep it is served from), must refuse the
// ambiguous domain, name z, find none, or say the list changed; it names x,
// which never held the domain alone and no longer holds it at all.
func TestAccWebsite_rev44uLookupAfterListMixesRenames(t *testing.T) {
	acctest.NeedsEmulator(t, "renames websites between two list requests")
	var (
		mu   sync.Mutex
		done bool
		act  func()
	)
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && q.Get("search") == "" && q.Get("page") == "2" {
				mu.Lock()
				if act != nil && !done {
					done = true
					act()
				}
				mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(wrap))
	dup := env.Domain("rev44u-dup")
	var ids []int64 // oldest first
	for i := range 150 {
		ids = append(ids, env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprintf("rev44u-w%03d", i))}).ID)
	}
	z, x := ids[10], ids[120]
	env.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = dup })
	env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = dup })
	mu.Lock()
	act = func() {
		env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = env.Domain("rev44u-x-now") })
		env.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = env.Domain("rev44u-z-now") })
	}
	mu.Unlock()
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+fmt.Sprintf(`
data "analytics_websites" "all" {}
data "analytics_website" "d" {
  domain     = %q
  depends_on = [data.analytics_websites.all]
}
output "id" {
  value = data.analytics_website.d.id
}
`, dup))
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		t.Logf("apply refused (exit %d), fine:\n%s", code, out)
		return
	}
	got, _ := w.Run("output", "-raw", "id")
	got = strings.TrimSpace(got)
	if got == fmt.Sprint(x) {
		t.Errorf("analytics_website by domain %q = website %s: it never held the domain alone (holders {%d, %d}, "+
			"then {%d}, then none); the sweep mixed page 1 before the renames with page 2 after them\n%s",
			dup, got, x, z, z, out)
	}
}
