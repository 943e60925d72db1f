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

// The same through terraform query (Terraform 1.16.4), whose list resource
// documents that "it checks that no website was created, deleted or
// renamed while it read them": the whole list newest first, limit 1000.
// x (page 1) holds a domain; right before page 2 is read, another pipeline
// renames x away and then z (page 2) to x's old domain. At no moment did
// two websites hold that domain; the query lists two results with it, and
// none with x's new one, without an error.
func TestAccWebsiteList_rev44uRenamesAcrossPages(t *testing.T) {
	acctest.CLIDependent(t, "list resources and terraform query: Terraform 1.14; OpenTofu has none")
	acctest.NeedsEmulator(t, "renames websites between two list requests")
	w := acctest.NewWorkdir(t)
	w.SkipBelowQuery()
	var (
		mu   sync.Mutex
		done bool
		act  func()
	)
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && q.Get("search") == "" && q.Get("page") == "2" {
				mu.Lock()
				if act != nil && !done {
					done = true
					act()
				}
				mu.Unlock()
			}
			h.ServeHTTP(rw, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(wrap))
	var ids []int64
	for i := range 150 {
		ids = append(ids, env.Seed(env.Key, emulator.Website{Domain: fmt.Sprintf("w%03d.rev44u-q.example.com", i)}).ID)
	}
	x, z := ids[120], ids[10]
	held := "w120.rev44u-q.example.com"
	mu.Lock()
	act = func() {
		env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x-now.rev44u-q.example.com" })
		env.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = held })
	}
	mu.Unlock()
	w.Write("main.tf", env.ProviderBlock())
	w.Write("websites.tfquery.hcl", `
list "analytics_website" "all" {
  provider = analytics
  limit    = 1000
}
`)
	out, code := w.Run("query", "-no-color")
	if code != 0 {
		if strings.Contains(out, "Website List Changed While Reading") {
			return
		}
		t.Fatalf("query (exit %d):\n%s", code, out)
	}
	t.Logf("query lines with %s:\n%s", held, grepLines(out, held))
	if n := strings.Count(out, " "+held); n > 1 || !strings.Contains(out, "x-now.rev44u-q.example.com") {
		t.Errorf("terraform query lists %s %d times (websites %d and %d; at no moment did both hold it), "+
			"and x's current domain: %v", held, n, x, z, strings.Contains(out, "x-now.rev44u-q.example.com"))
	}
}

func grepLines(out, s string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
