package provider

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// Helpers of the skip_destroy, kept-website and exclude_ips write-back
// acceptance tests: the setups several of them share.

// storesWebRepeat is why a test needs the emulator: it stores a list the
// web interface typed with a repeat, past the API's input handling.
const storesWebRepeat = "stores a repeated exclude_ips line, as the web interface does"

// emulatedWorkdir is the start of a test that needs the in-process
// emulator (why): an emulator, a domain from name and a Workdir.
func emulatedWorkdir(t *testing.T, why, name string) (*acctest.Env, string, *acctest.Workdir) {
	t.Helper()
	acctest.NeedsEmulator(t, why)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	return env, env.Domain(name), acctest.NewWorkdir(t)
}

// domainHolders is the ids of the websites of env's key that hold domain
// on the server.
func domainHolders(t *testing.T, env *acctest.Env, domain string) []int64 {
	t.Helper()
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
	return held
}

// importPair is the two import blocks that take the websites id1 and id2
// into analytics_website.a and .b (a configuration's middle: it starts
// and ends with a line break).
func importPair(id1, id2 int64) string {
	return fmt.Sprintf(`
import {
  to = analytics_website.a
  id = "%d"
}
import {
  to = analytics_website.b
  id = "%d"
}
`, id1, id2)
}

// webStoresIPs applies the configuration first, then the web interface
// stores text as the website's exclude_ips (a list typed there, repeats
// and all), and the configuration becomes next. It returns the website's
// id.
func webStoresIPs(t *testing.T, env *acctest.Env, w *acctest.Workdir, domain, first, text, next string) int64 {
	t.Helper()
	w.Write("main.tf", first)
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	env.UpdateWebsite(id, func(x *emulator.Website) { x.ExcludeIPs = text })
	w.Write("main.tf", next)
	return id
}

// ipsBotsConfig is a website of domain with exclude_ips = [ip] and
// exclude_bots = bots.
func ipsBotsConfig(env *acctest.Env, domain, ip string, bots bool) string {
	return env.Config(fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  exclude_ips  = [%q]
  exclude_bots = %t
}
`, domain, ip, bots))
}

// updateAfterCreateConfig is website b (domain b, exclude_ips = [ip],
// exclude_bots = bots) and, withA, website a (domain a), which b depends
// on: b's update then starts after a's create, whose held-domain check,
// planned again at apply time, lists the websites.
func updateAfterCreateConfig(env *acctest.Env, b, a, ip string, bots, withA bool) string {
	dep := ""
	if withA {
		dep = "  depends_on   = [analytics_website.a]\n"
	}
	s := fmt.Sprintf(`resource "analytics_website" "b" {
  domain       = %q
  exclude_ips  = [%q]
  exclude_bots = %t
%s}
`, b, ip, bots, dep)
	if withA {
		s += fmt.Sprintf("resource \"analytics_website\" \"a\" {\n  domain = %q\n}\n", a)
	}
	return env.Config(s)
}

// listReadChange stands in front of the emulator: while armed
// (Store(true)), right after the first list read (GET /websites), the web
// interface stores ips as the exclude_ips of the website target holds.
type listReadChange struct {
	atomic.Bool // armed
	changed     atomic.Bool
	target      atomic.Int64
	ips         string
	env         *acctest.Env
}

// newListReadChange starts an emulator with a listReadChange in front.
func newListReadChange(t *testing.T, ips string) (*acctest.Env, *listReadChange) {
	c := &listReadChange{ips: ips}
	c.env = acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(rw, r)
			if c.Load() && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/websites") &&
				!c.changed.Swap(true) {
				c.env.UpdateWebsite(c.target.Load(), func(w *emulator.Website) { w.ExcludeIPs = c.ips })
			}
		})
	}))
	return c.env, c
}

// apply applies w's tfplan while armed, and stops the test when the apply
// read no list. It returns the apply's output and exit code.
func (c *listReadChange) apply(t *testing.T, w *acctest.Workdir) (string, int) {
	t.Helper()
	c.Store(true)
	out, code := w.Run("apply", "tfplan", "-no-color")
	c.Store(false)
	if !c.changed.Load() {
		t.Fatalf("the apply read no list (the scenario did not happen; exit code %d):\n%s", code, out)
	}
	return out, code
}

// twinWorkdir seeds two websites with one domain, holding a and b
// (seedSameDomain), and imports them into analytics_website.a and .b of
// resources (the configuration but the provider block and the import
// blocks) by a first apply. It returns the workdir and the two ids.
func twinWorkdir(t *testing.T, env *acctest.Env, domain string, a, b wire.Settings, resources string) (*acctest.Workdir, int64, int64) {
	t.Helper()
	ids, _ := seedSameDomain(t, env, domain, a, b)
	w := acctest.NewWorkdir(t)
	w.Write("main.tf", env.ProviderBlock()+importPair(ids[0], ids[1])+resources)
	w.MustRun(0, "apply", "-auto-approve")
	return w, ids[0], ids[1]
}

// interruptedAfter makes w run the CLI under timeout(1), which interrupts
// it (SIGINT) after seconds and kills it 30 s later (foreground: as the
// CLI's own process group, so that its interrupt reaches the provider
// through the CLI alone): a test of a wait that must not hang ends anyway.
// It returns the function that undoes it.
func interruptedAfter(t *testing.T, w *acctest.Workdir, seconds int, foreground bool) func() {
	t.Helper()
	flag := ""
	if foreground {
		flag = "--foreground "
	}
	script := filepath.Join(t.TempDir(), "cli-interrupted")
	body := fmt.Sprintf("#!/bin/sh\nexec timeout %s-s INT -k 30 %d %s \"$@\"\n", flag, seconds, w.CLI)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil { //nolint:gosec // a test's script
		t.Fatal(err)
	}
	cli := w.CLI
	w.CLI = script
	return func() { w.CLI = cli }
}
