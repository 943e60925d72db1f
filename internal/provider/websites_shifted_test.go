package provider

// analytics_websites and terraform query, with and without a search,
// while another pipeline renames websites between the pages the provider
// reads; and the lookups by domain served from such a list.

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// 250 websites match the search (three pages of 100). Right before page 3
// is first read, another pipeline renames a website of page 1 out of the
// search and an old website into it (meta.total stays); right before the
// next request, it renames both back. Page 3 was read shifted by one. The
// data source must list all 250 websites (or fail saying the list
// changed). When each page was checked only against a second read of the
// page before it, it listed 249, without a website that matched,
// unchanged, throughout, and with one that matched only for a moment.
func TestAccWebsites_searchLastPageShiftedAndUndone(t *testing.T) {
	acctest.NeedsEmulator(t, "renames websites between two list requests")
	var (
		mu            sync.Mutex
		seen3, undone bool
		armed         bool
		act3, act2    func()
	)
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && strings.Contains(r.URL.Query().Get("search"), "search-shift") {
				page := r.URL.Query().Get("page")
				mu.Lock()
				switch {
				case armed && page == "3" && !seen3:
					seen3 = true
					act3()
				case armed && seen3 && !undone: // the request after page 3's first read
					undone = true
					act2()
				}
				mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{})), acctest.Wrap(wrap))
	tag := env.Domain("search-shift")
	seed := func(d string) int64 { return env.Seed(env.Key, emulator.Website{Domain: d}).ID }
	outsider := seed(env.Domain("shift-other"))
	outsiderName := mustDomainOf(t, env, outsider)
	var all []int64
	for i := range 250 {
		all = append(all, seed(fmt.Sprintf("s%03d.%s", i, tag)))
	}
	x := all[249]
	mu.Lock()
	armed = true
	act3 = func() {
		env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = env.Domain("shift-x") })
		env.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o." + tag })
	}
	act2 = func() {
		env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = fmt.Sprintf("s249.%s", tag) })
		env.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = outsiderName })
	}
	mu.Unlock()
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+fmt.Sprintf(`
data "analytics_websites" "s" {
  search = %q
}
output "n" {
  value = length(data.analytics_websites.s.websites)
}
output "ids" {
  value = join(",", [for w in data.analytics_websites.s.websites : w.id])
}
`, tag))
	out, code := w.Run("apply", "-auto-approve", "-no-color")
	if code != 0 {
		if strings.Contains(out, "Website List Changed While Reading") {
			return // said so
		}
		t.Fatalf("apply (exit %d):\n%s", code, out)
	}
	n, _ := w.Run("output", "-raw", "n")
	ids, _ := w.Run("output", "-raw", "ids")
	got := map[string]bool{}
	for _, id := range strings.Split(strings.TrimSpace(ids), ",") {
		got[id] = true
	}
	var missing []int64
	for _, id := range all {
		if !got[fmt.Sprint(id)] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 || got[fmt.Sprint(outsider)] {
		t.Errorf("analytics_websites (search %q) lists %s websites; missing %v, which matched throughout; "+
			"outsider %d listed: %v (want all 250, or an error saying the list changed)",
			tag, strings.TrimSpace(n), missing, outsider, got[fmt.Sprint(outsider)])
	}
}

func mustDomainOf(t *testing.T, env *acctest.Env, id int64) string {
	t.Helper()
	var d string
	if !env.UpdateWebsite(id, func(w *emulator.Website) { d = w.Domain }) {
		t.Fatalf("no website %d", id)
	}
	return d
}

// The same through terraform query (Terraform 1.16.4): the list resource
// with a search, limit 1000, must return the 250 websites that matched
// throughout (or fail saying the list changed). The earlier design
// returned one that matched only between two page reads instead of one
// that matched throughout.
func TestAccWebsiteList_searchLastPageShiftedAndUndone(t *testing.T) {
	acctest.CLIDependent(t, "list resources and terraform query: Terraform 1.14; OpenTofu has none")
	acctest.NeedsEmulator(t, "renames websites between two list requests")
	w := acctest.NewWorkdir(t)
	w.SkipBelowQuery()
	var (
		mu            sync.Mutex
		seen3, undone bool
		act3, act2    func()
	)
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/api/v1/websites" && strings.Contains(r.URL.Query().Get("search"), "query-shift") {
				page := r.URL.Query().Get("page")
				mu.Lock()
				switch {
				case act3 != nil && page == "3" && !seen3:
					seen3 = true
					act3()
				case act2 != nil && seen3 && !undone: // the request after page 3's first read
					undone = true
					act2()
				}
				mu.Unlock()
			}
			h.ServeHTTP(rw, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(wrap))
	tag := "query-shift.example.com"
	seed := func(d string) int64 { return env.Seed(env.Key, emulator.Website{Domain: d}).ID }
	outsider := seed("o.shift-other.example.com")
	var all []int64
	for i := range 250 {
		all = append(all, seed(fmt.Sprintf("s%03d.%s", i, tag)))
	}
	x := all[249]
	mu.Lock()
	act3 = func() {
		env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x.shift-other.example.com" })
		env.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o." + tag })
	}
	act2 = func() {
		env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "s249." + tag })
		env.UpdateWebsite(outsider, func(w *emulator.Website) { w.Domain = "o.shift-other.example.com" })
	}
	mu.Unlock()
	w.Write("main.tf", env.ProviderBlock())
	w.Write("websites.tfquery.hcl", fmt.Sprintf(`
list "analytics_website" "s" {
  provider = analytics
  limit    = 1000
  config {
    search = %q
  }
}
`, tag))
	out, code := w.Run("query", "-no-color")
	if code != 0 {
		if strings.Contains(out, "Website List Changed While Reading") {
			return
		}
		t.Fatalf("query (exit %d):\n%s", code, out)
	}
	var missing []string
	for i := range 250 {
		if !strings.Contains(out, fmt.Sprintf("s%03d.%s", i, tag)) {
			missing = append(missing, fmt.Sprintf("s%03d.%s", i, tag))
		}
	}
	if len(missing) > 0 || strings.Contains(out, "o."+tag) {
		t.Errorf("terraform query (search %q): %d results; missing %v, which matched throughout; "+
			"o.%s (matched only between two page reads) listed: %v",
			tag, strings.Count(out, "list.analytics_website.s "), missing, tag, strings.Contains(out, "o."+tag))
	}
}

// 150 websites (two pages of 100). x (page 1) and z (page 2) both hold one
// domain. Right before the provider reads page 2 of the list, another
// pipeline renames x, then z, away from it: the domain's holders were
// {x, z}, then {z}, then none. analytics_website by that domain, read after
// analytics_websites (whose sweep it is served from), must refuse the
// ambiguous domain, name z, find none, or say the list changed. When the
// list's pages were read once, it named x, which never held the domain
// alone and no longer held it at all.
func TestAccWebsite_lookupAfterListWithRenamesAcrossPages(t *testing.T) {
	acctest.NeedsEmulator(t, "renames websites between two list requests")
	wrap, arm := beforeFirstPage2()
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(wrap))
	dup := env.Domain("renames-dup")
	var ids []int64 // oldest first
	for i := range 150 {
		ids = append(ids, env.Seed(env.Key, emulator.Website{Domain: env.Domain(fmt.Sprintf("renames-w%03d", i))}).ID)
	}
	z, x := ids[10], ids[120]
	env.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = dup })
	env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = dup })
	arm(func() {
		env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = env.Domain("renames-x-now") })
		env.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = env.Domain("renames-z-now") })
	})
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
// two websites hold that domain. When the list's pages were read once,
// the query listed two results with it, and none with x's new one,
// without an error.
func TestAccWebsiteList_renamesAcrossPages(t *testing.T) {
	acctest.CLIDependent(t, "list resources and terraform query: Terraform 1.14; OpenTofu has none")
	acctest.NeedsEmulator(t, "renames websites between two list requests")
	w := acctest.NewWorkdir(t)
	w.SkipBelowQuery()
	wrap, arm := beforeFirstPage2()
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(wrap))
	var ids []int64
	for i := range 150 {
		ids = append(ids, env.Seed(env.Key, emulator.Website{Domain: fmt.Sprintf("w%03d.renames-q.example.com", i)}).ID)
	}
	x, z := ids[120], ids[10]
	held := "w120.renames-q.example.com"
	arm(func() {
		env.UpdateWebsite(x, func(w *emulator.Website) { w.Domain = "x-now.renames-q.example.com" })
		env.UpdateWebsite(z, func(w *emulator.Website) { w.Domain = held })
	})
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
	if n := strings.Count(out, " "+held); n > 1 || !strings.Contains(out, "x-now.renames-q.example.com") {
		t.Errorf("terraform query lists %s %d times (websites %d and %d; at no moment did both hold it), "+
			"and x's current domain: %v", held, n, x, z, strings.Contains(out, "x-now.renames-q.example.com"))
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

// beforeFirstPage2 returns a wrap for acctest.Wrap that runs the action
// given to arm, once, just before the first request for page 2 of the
// unfiltered list (no search).
func beforeFirstPage2() (wrap func(http.Handler) http.Handler, arm func(func())) {
	var (
		mu   sync.Mutex
		done bool
		act  func()
	)
	wrap = func(h http.Handler) http.Handler {
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
	arm = func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		act = f
	}
	return wrap, arm
}
