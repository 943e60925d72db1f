package provider

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// reusedIDHCL is one website of domain, with extra attributes.
func reusedIDHCL(domain, extra string) string {
	return fmt.Sprintf(`
resource "analytics_website" "test" {
  domain = %q
  %s
}
`, domain, extra)
}

// The managed website is deleted outside Terraform and another website
// gets its id (MySQL before 8.0 reuses the highest id after a restart). A
// destroy or an update with -refresh=false writes nothing to the other
// website; a refresh removes the managed one from the state with a warning
// naming both, and the apply creates it anew and leaves the other alone.
func TestAccWebsite_reusedID(t *testing.T) {
	acctest.NeedsEmulator(t, "gives the managed website's id to another website")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	managed, otherDomain := env.Domain("reused-managed"), env.Domain("reused-other")
	s.Apply(reusedIDHCL(managed, ""))
	id := s.StateID(t, "test")
	other := env.Seed(env.Key, emulator.Website{ID: id, Domain: otherDomain})
	untouched := func(step string) {
		t.Helper()
		if got, ok := env.Website(id); !ok || got.Domain != otherDomain || !got.UpdatedAt.Equal(other.UpdatedAt) {
			t.Fatalf("%s: the other website under id %d was written to: %+v (exists: %v)", step, id, got, ok)
		}
		if n := env.Writes(); n != 0 {
			t.Fatalf("%s: %d writes, want none (by route: %v)", step, n, env.Stats().ByRoute)
		}
	}
	refused := acctest.ExpectError(fmt.Sprintf(`Another Website Under This ID.*%q.*id %d now holds the website %q.*Nothing was`,
		managed, id, otherDomain))

	env.ResetStats()
	out, code := s.W.Run("destroy", "-auto-approve", "-refresh=false")
	if code != 1 || !refused.MatchString(out) {
		t.Errorf("destroy -refresh=false: exit code %d:\n%s", code, out)
	}
	untouched("destroy -refresh=false")

	env.ResetStats()
	s.Write(reusedIDHCL(managed, "email_reports = true"))
	out, code = s.W.Run("apply", "-auto-approve", "-refresh=false")
	if code != 1 || !refused.MatchString(out) {
		t.Errorf("update -refresh=false: exit code %d:\n%s", code, out)
	}
	untouched("update -refresh=false")

	env.ResetStats()
	diags := s.W.PlanDiags()
	d, ok := planWarnings(diags, "Website No Longer Under Its ID")["analytics_website.test"]
	if !ok || !acctest.ExpectError(fmt.Sprintf(`The website %q .*under id %d: that id now holds the website %q`,
		managed, id, otherDomain)).MatchString(d.Detail) {
		t.Errorf("refresh: %+v", diags)
	}
	untouched("refresh")

	s.W.MustRun(0, "apply", "-auto-approve")
	changed := env.Stats().ByMethod["DELETE"] + env.Stats().ByMethod["PUT"]
	if got, ok := env.Website(id); !ok || got.Domain != otherDomain || changed != 0 {
		t.Errorf("apply: the other website was touched (%d deletes and updates): %+v", changed, got)
	}
	if w, ok := env.WebsiteByDomain(managed); !ok || w.ID == id || s.StateID(t, "test") != w.ID {
		t.Errorf("apply: the managed website must be created anew: %+v", w)
	}
	env.DeleteWebsite(id)
}

// Another website with the same domain and another creation time under
// the id (deleted and created again in the web interface, the id reused)
// is another website too.
func TestAccWebsite_reusedIDSameDomain(t *testing.T) {
	acctest.NeedsEmulator(t, "gives the managed website's id to another website")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	managed := env.Domain("reused-same")
	s.Apply(reusedIDHCL(managed, ""))
	id := s.StateID(t, "test")
	was, _ := env.Website(id)
	env.Seed(env.Key, emulator.Website{ID: id, Domain: managed, CreatedAt: was.CreatedAt.Add(time.Hour)})
	env.ResetStats()
	out, code := s.W.Run("destroy", "-auto-approve", "-refresh=false")
	if code != 1 || !acctest.ExpectError(`Another Website Under This ID`).MatchString(out) || env.Writes() != 0 {
		t.Errorf("destroy -refresh=false: exit code %d, %d writes:\n%s", code, env.Writes(), out)
	}
	if d, ok := planWarnings(s.W.PlanDiags(), "Website No Longer Under Its ID")["analytics_website.test"]; !ok ||
		!regexp.MustCompile(`under id `+strconv.FormatInt(id, 10)).MatchString(d.Detail) {
		t.Errorf("refresh: no warning")
	}
	env.DeleteWebsite(id)
}

// An import by id takes whatever website is under the id, and says which
// domain it adopted.
func TestAccWebsite_importByIDSaysDomain(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds the website to import")
	s := acctest.NewCLIEnv(t)
	env := s.Env
	domain := env.Domain("import-says")
	w := env.Seed(env.Key, emulator.Website{Domain: domain})
	s.Write(reusedIDHCL(domain, ""))
	out := s.W.MustRun(0, "import", "analytics_website.test", strconv.FormatInt(w.ID, 10))
	if !acctest.ExpectError(fmt.Sprintf(`Website Imported by ID.*Imported id %d: the website %q`, w.ID, domain)).MatchString(out) {
		t.Errorf("import:\n%s", out)
	}
	s.DestroyIfLive(t)
}
