package repotest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// The guide "Adopting existing websites"
// (templates/guides/adopting-existing-websites.md.tmpl): its recipes, as
// the guide shows them, on an account of websites made outside Terraform.

// guideFile returns a file of an example of a guide (examples/guides), as
// the guide shows it.
func guideFile(t *testing.T, example, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "guides", example, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func ptr[T any](v T) *T { return &v }

// intOr is *p, or def when p is nil (NULL).
func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// seedKinds is how many kinds of website seedAccount makes, in turn: its
// first seedKinds websites hold one of each.
const seedKinds = 9

// seedAccount fills the emulator with n websites of every kind that the web
// interface makes (password privacy, exclusions the API never returns, CRLF
// lists, NULL columns, an IPv4 address as domain, every column set, and
// values the provider never writes: exclusions that never match,
// a domain with a space and a "/") and one
// website of another user, and returns the key user's websites. Every
// column the API sets or returns is set in some of them, so that a guide
// that does not carry an attribute over shows it changing.
func seedAccount(t *testing.T, env *acctest.Env, n int) []emulator.Website {
	t.Helper()
	var out []emulator.Website
	for i := range n {
		w := emulator.Website{Domain: fmt.Sprintf("adopt-%03d.example.com", i)}
		switch i % seedKinds {
		case 1:
			w.Privacy, w.Password, w.Email = ptr(2), "from-the-ui", ptr(1)
		case 2:
			w.Privacy, w.ExcludeParams, w.ExcludeIPs = ptr(1), "utm_source\nfbclid", "10.0.0.1\r\n10.0.0.0/8\r\n"
		case 3:
			w.Privacy, w.ExcludeBots, w.ExcludeParams = ptr(0), ptr(0), "&"
		case 4:
			w.Domain = fmt.Sprintf("192.0.2.%d", i)
		case 5:
			w.Privacy, w.Email, w.ExcludeBots = ptr(0), ptr(0), ptr(1)
		case 6:
			w = acctest.FullWebsite(w.Domain)
		case 7:
			w.ExcludeIPs = "10.0.0.300\r\n1.2.3.4 \r\n \r\n 5.6.7.8\r\n2001:DB8::1"
		case 8:
			w.Domain = fmt.Sprintf("adopt %03d/typed.example.com", i)
		}
		out = append(out, env.Seed(env.Key, w))
	}
	env.Seed(acctest.KeyOther, emulator.Website{Domain: "someone-else.example.com"})
	return out
}

// checkUnchanged fails unless every website still holds what it was seeded
// with, in every column, including what the API never returns.
func checkUnchanged(t *testing.T, env *acctest.Env, seeded []emulator.Website) {
	t.Helper()
	now := map[int64]emulator.Website{}
	for _, w := range env.Websites() {
		now[w.ID] = w
	}
	for _, w := range seeded {
		got, ok := now[w.ID]
		switch {
		case !ok:
			t.Errorf("website %d (%s) is gone", w.ID, w.Domain)
		case !reflect.DeepEqual(got, w):
			t.Errorf("website %d (%s) changed: %v", w.ID, w.Domain, acctest.ChangedColumns(w, got))
		}
	}
}

// TestAccGuide_adoptAll runs the guide's one-plan adoption (data source,
// for_each resource, for_each import blocks) on an account of 150 websites
// made outside Terraform: the plan only imports, costs the list pages and
// the key's account (no request per website), the apply writes nothing, the
// next plan is empty, and a website created later in the web interface is
// imported by the next plan.
func TestAccGuide_adoptAll(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites, whose number depends on when the CLI's calls arrive (client.BulkReader)")
	acctest.CLIDependent(t, "the guide's recipe on each CLI: import blocks, -generate-config-out")
	acctest.NeedsEmulator(t, "seeds 150 websites into the emulator's memory and counts its requests")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{})))
	seeded := seedAccount(t, env, 150)
	w.Write("main.tf", env.ProviderBlock()+guideFile(t, "adopt-all", "main.tf"))

	env.ResetStats()
	out := w.MustRun(0, "plan")
	if changes := acctest.PlanChanges(out); len(changes) != 0 {
		t.Fatalf("the guide's plan changes %v of websites it imports, which would overwrite what the users' websites "+
			"hold: examples/guides/adopt-all/main.tf's resource \"analytics_website\" \"site\" must copy every "+
			"attribute the data source shows (e.g. %s = each.value.%[2]s):\n%s", changes, changes[0], out)
	}
	if !regexp.MustCompile(`Plan: 150 to import, 0 to add, 0 to change, 0 to destroy`).MatchString(out) {
		t.Fatalf("the plan does more than import:\n%s", out)
	}
	// 2 list pages, read twice (so that the list is one moment's), and
	// GET /account; the imports and reads come from the data source's list.
	t.Logf("plan of 150 imports: %v", env.Stats().ByRoute)
	if s := env.Stats(); s.Total > 5 {
		t.Errorf("the plan of 150 imports cost %d requests, want at most 5: %v", s.Total, s.ByRoute)
	}
	env.ResetStats()
	w.MustRun(0, "apply", "-auto-approve")
	if s := env.Stats(); env.Writes() != 0 || s.Total > 5 {
		t.Errorf("the apply cost %d requests (%d writes), want at most 5 and no write: %v", s.Total, env.Writes(), s.ByRoute)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	checkUnchanged(t, env, seeded)

	later := env.Seed(env.Key, emulator.Website{Domain: "later.example.com", Settings: wire.Settings{ExcludeParams: "ref"}})
	out = w.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("a website made later was not imported:\n%s", out)
	}
	checkUnchanged(t, env, append(seeded, later))
	if strings.Contains(w.Read("terraform.tfstate"), "someone-else") {
		t.Error("another user's website was adopted")
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
}

// TestAccGuide_adoptGenerated runs the guide's one-block-per-website recipe:
// import blocks written from the list data source, then
// -generate-config-out.
func TestAccGuide_adoptGenerated(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites, whose number depends on when the CLI's calls arrive (client.BulkReader)")
	acctest.CLIDependent(t, "the guide's recipe on each CLI: import blocks, -generate-config-out")
	acctest.NeedsEmulator(t, "seeds websites into the emulator's memory and counts its requests")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{})))
	seeded := seedAccount(t, env, 30)
	w.Write("main.tf", env.ProviderBlock()+guideFile(t, "adopt-generated", "main.tf"))

	w.MustRun(0, "apply", "-auto-approve")
	imports := w.MustRun(0, "output", "-raw", "import_blocks")
	if n := strings.Count(imports, "import {"); n != len(seeded) {
		t.Fatalf("%d import blocks for %d websites:\n%s", n, len(seeded), imports)
	}
	w.Write("imports.tf", imports)
	w.MustRun(0, "plan", "-generate-config-out=generated.tf")
	gen := w.Read("generated.tf")
	if m := regexp.MustCompile(`(?m)^\s*(exclude_params|password)\s*=\s*[^n\s].*$`).FindString(gen); m != "" {
		t.Errorf("the generated configuration sets a value the API never returns: %q", m)
	}
	w.MustRun(0, "validate")
	env.ResetStats()
	out := w.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", len(seeded))) || env.Writes() != 0 {
		t.Errorf("the apply did more than import (%d writes; changes %v: the configuration generated from an import "+
			"must hold what the import reads):\n%s", env.Writes(), acctest.PlanChanges(out), out)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	checkUnchanged(t, env, seeded)
}

// TestAccGuide_adoptQuery runs the adoption guide's recipe for Terraform
// 1.14 and later on an account of 150 websites made outside Terraform:
// terraform query -generate-config-out costs one request per 100 websites
// and writes import blocks by identity and resource blocks that validate,
// hold nothing the API never returns, import with no write and plan no
// change; a first change to them keeps what the server holds and the API
// never returns (exclude_params, the password); the imports remember the
// owner.
func TestAccGuide_adoptQuery(t *testing.T) {
	acctest.Serial(t, "counts requests of many websites, whose number depends on when the CLI's calls arrive (client.BulkReader)")
	acctest.CLIDependent(t, "the guide's terraform query recipe: Terraform 1.14; OpenTofu has none")
	w := acctest.NewWorkdir(t)
	w.SkipBelowQuery()
	env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{})))
	seeded := seedAccount(t, env, 150)
	w.Write("main.tf", env.ProviderBlock())
	w.Write("websites.tfquery.hcl", guideFile(t, "adopt-query", "websites.tfquery.hcl"))
	w.MustRun(0, "validate", "-query")

	// The guide's commands, in order.
	out := w.MustRun(0, "query")
	if n := strings.Count(out, "list.analytics_website.site "); n != 150 || !strings.Contains(out, "adopt-149.example.com") {
		t.Errorf("the query listed %d websites, want 150:\n%s", n, out)
	}
	env.ResetStats()
	out = w.MustRun(0, "query", "-generate-config-out=generated.tf")
	if n := strings.Count(out, "list.analytics_website.site "); n != 150 {
		t.Errorf("the query listed %d websites, want 150:\n%s", n, out)
	}
	t.Logf("query of 150 websites: %v", env.Stats().ByRoute)
	if s := env.Stats(); s.Total != 4 {
		t.Errorf("the query of 150 websites cost %d requests, want 4 (its 2 list pages, read twice): %v", s.Total, s.ByRoute)
	}
	gen := w.Read("generated.tf")
	if n := regexp.MustCompile(`(?m)^import \{\n\s+to\s+= analytics_website\.site_\d+\n(?:.*\n)*?\s+identity = \{`).
		FindAllStringIndex(gen, -1); len(n) != 150 {
		t.Errorf("%d import blocks by identity, want 150:\n%.2000s", len(n), gen)
	}
	if m := regexp.MustCompile(`(?m)^\s*(exclude_params|password|password_wo|password_wo_version)\s*=\s*[^n\s].*$`).FindString(gen); m != "" {
		t.Errorf("the generated configuration sets a value the API never returns: %q", m)
	}
	if strings.Contains(gen, "someone-else") {
		t.Error("another user's website was listed")
	}
	w.MustRun(0, "validate")
	// Renamed before the first apply, as the guide allows: the resource
	// block and the import block's to.
	renamed := strings.NewReplacer(`resource "analytics_website" "site_0" {`, `resource "analytics_website" "oldest" {`,
		"to       = analytics_website.site_0\n", "to       = analytics_website.oldest\n").Replace(gen)
	if renamed == gen {
		t.Fatalf("no analytics_website.site_0 to rename:\n%.1000s", gen)
	}
	gen = renamed
	w.Write("generated.tf", gen)
	out = w.MustRun(0, "plan")
	if changes := acctest.PlanChanges(out); len(changes) != 0 {
		t.Fatalf("the plan of the generated configuration changes %v: the list resource's results "+
			"(importedWebsiteModel, internal/provider/website_list_resource.go) must hold what an import reads:\n%s",
			changes, out)
	}
	if !strings.Contains(out, "Plan: 150 to import, 0 to add, 0 to change, 0 to destroy") ||
		!strings.Contains(out, "analytics_website.oldest: Preparing import") {
		t.Fatalf("the plan does more than import:\n%s", out)
	}

	env.ResetStats()
	out = w.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, "150 imported, 0 added, 0 changed, 0 destroyed") {
		t.Fatalf("the apply did more than import:\n%s", out)
	}
	// The account, a probe and the sweep's 2 pages: no request per website.
	t.Logf("apply of 150 imports: %v", env.Stats().ByRoute)
	if s := env.Stats(); env.Writes() != 0 || s.Total > 4 {
		t.Errorf("the apply cost %d requests (%d writes), want at most 4 and no write: %v", s.Total, env.Writes(), s.ByRoute)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	checkUnchanged(t, env, seeded)

	// A first change to the generated configuration: e-mail reports turned
	// over (off to on, on to off) on the first seedKinds websites, one of
	// each kind seedAccount makes, the one with every column set
	// (acctest.FullWebsite) included, so that each kind is updated. Only
	// that changes on the server.
	changedSites := map[string]bool{}
	for _, was := range seeded[:seedKinds] {
		changedSites[was.Domain] = true
	}
	changed := regexp.MustCompile(`(?ms)^resource "analytics_website" "[^"]+" \{\n.*?^\}`).ReplaceAllStringFunc(gen, func(block string) string {
		domain := regexp.MustCompile(`(?m)^\s*domain\s*=\s*"([^"]*)"`).FindStringSubmatch(block)
		if domain == nil || !changedSites[domain[1]] {
			return block
		}
		return regexp.MustCompile(`(email_reports\s*=\s*)(true|false)`).ReplaceAllStringFunc(block, func(m string) string {
			if strings.HasSuffix(m, "true") {
				return strings.TrimSuffix(m, "true") + "false"
			}
			return strings.TrimSuffix(m, "false") + "true"
		})
	})
	w.Write("generated.tf", changed)
	out = w.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, fmt.Sprintf("0 added, %d changed, 0 destroyed", seedKinds)) {
		t.Fatalf("the change was not applied to each of the %d websites:\n%s", seedKinds, out)
	}
	checkKept(t, env, seeded)
	for i, was := range seeded {
		ws, _ := env.Website(was.ID)
		want := ptr(1 - min(1, intOr(was.Email, 0)))
		if i >= seedKinds { // not changed
			want = was.Email
		}
		if !reflect.DeepEqual(ws.Email, want) {
			t.Errorf("website %d (%s): e-mail reports %s after the change, want %s", ws.ID, ws.Domain,
				acctest.Shown(reflect.ValueOf(ws.Email)), acctest.Shown(reflect.ValueOf(want)))
		}
	}
	w.MustRun(0, "plan", "-detailed-exitcode")

	// List results carry no private state; the import that follows
	// remembered the owner: with another user's key, the plan fails naming
	// both users and drops nothing.
	w.Write("main.tf", env.ProviderBlockAt(env.URL, acctest.KeyOther))
	out, code := w.Run("plan")
	if code == 0 || !acctest.ExpectError(`Website Belongs to Another User.*created or imported by user #1`).MatchString(out) {
		t.Errorf("another user's key: exit code %d:\n%.3000s", code, out)
	}
	checkKept(t, env, seeded)
}

// checkKept fails unless every website still holds what it was seeded
// with, but e-mail reports (the change) and its last change's time: what
// the API never returns (exclude_params, the password) included, and the
// same excluded IPs (an update rewrites the list one per line).
func checkKept(t *testing.T, env *acctest.Env, seeded []emulator.Website) {
	t.Helper()
	for _, w := range seeded {
		got, ok := env.Website(w.ID)
		if !ok {
			t.Errorf("website %d (%s) is gone", w.ID, w.Domain)
			continue
		}
		// An update sends every setting: a NULL integer column comes back as
		// the value the application reads NULL as, which is no loss.
		nullAsRead(w, &got)
		if changed := acctest.LostColumns(w, got, "Email", "UpdatedAt"); len(changed) != 0 {
			t.Errorf("website %d (%s) lost data: %v", w.ID, w.Domain, changed)
		}
	}
}

// nullAsRead sets to NULL each integer column of now that was NULL and now
// holds the value the application reads NULL as (wire.Column.Null: public
// privacy, no e-mail reports, bots not excluded), the convention
// acctest.InputOf follows.
func nullAsRead(was emulator.Website, now *emulator.Website) {
	for _, c := range wire.Columns {
		w, n := was.Get(c.Name), now.Get(c.Name)
		if c.Kind == wire.Integer && w.IsNil() && !n.IsNil() && n.Elem().Int() == int64(c.Null) {
			n.SetZero()
		}
	}
}

// nullAsRead takes back to NULL only what the application reads NULL as.
func TestGuide_nullAsRead(t *testing.T) {
	t.Parallel()
	now := emulator.Website{Settings: wire.Settings{Privacy: ptr(0), ExcludeBots: ptr(0), Email: ptr(0)}}
	nullAsRead(emulator.Website{}, &now)
	if now.Privacy != nil || now.ExcludeBots != nil {
		t.Errorf("privacy 0 and bots 0 after NULL: %s, %s, want NULL", acctest.Shown(reflect.ValueOf(now.Privacy)), acctest.Shown(reflect.ValueOf(now.ExcludeBots)))
	}
	now = emulator.Website{Settings: wire.Settings{Privacy: ptr(1), ExcludeBots: ptr(1)}}
	nullAsRead(emulator.Website{}, &now)
	if now.Privacy == nil || now.ExcludeBots == nil {
		t.Error("privacy 1 or bots 1 after NULL taken for NULL")
	}
	now = emulator.Website{Settings: wire.Settings{Privacy: ptr(0)}}
	nullAsRead(emulator.Website{Settings: wire.Settings{Privacy: ptr(2)}}, &now)
	if now.Privacy == nil {
		t.Error("privacy 0 after 2 taken for NULL")
	}
}
