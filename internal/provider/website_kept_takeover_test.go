package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestAccWebsite_keptHandOverUnknownAtPlan: the hand-over check of
// 60ed820 (a removed skip_destroy resource and a new resource with its
// domain and other settings) counts an attribute unknown at plan as "the
// same" (sameConfiguration). Here new's email_reports is unknown at plan
// (it depends on terraform_data.u, updated in this apply) and true at
// apply, while the kept website has false. Terraform orders old's removal
// before u's update (old's state depends on u) and u's update before new's
// create: the removal runs first, the create is refused (domain taken), the
// kept website is not put back (other settings), and it is left in no
// state (review rev44am). Now new's create takes the kept website over
// with its own settings (website_kept_takeover.go).
func TestAccWebsite_keptHandOverUnknownAtPlan(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-unknown")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "terraform_data" "u" {
  input = "1"
}
resource "analytics_website" "old" {
  domain        = %q
  email_reports = false
  skip_destroy  = true
  depends_on    = [terraform_data.u]
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	kept := env.MustWebsite(t, domain)
	defer func() { _ = env.API(env.Key).DeleteWebsite(t.Context(), kept.ID) }()

	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "terraform_data" "u" {
  input = "2"
}
resource "analytics_website" "new" {
  domain        = %q
  email_reports = terraform_data.u.output == "2"
  skip_destroy  = true
}
`, domain)))
	planOut, planCode := w.Run("plan", "-no-color", "-out=tfplan")
	if planCode != 0 {
		t.Logf("plan refused (exit %d):\n%s", planCode, planOut)
		return // refused at plan: nothing can be lost
	}
	out, code := w.Run("apply", "-auto-approve", "-no-color", "tfplan")
	ids := stateIDs(t, w.Read("terraform.tfstate"))
	if got := env.MustWebsite(t, domain); got.ID != kept.ID {
		t.Fatalf("the server holds website %d for %q, want the kept %d", got.ID, domain, kept.ID)
	}
	if ids["old"] != fmt.Sprint(kept.ID) && ids["new"] != fmt.Sprint(kept.ID) {
		t.Errorf("the plan passed (a create with email_reports unknown at plan, the kept website's domain), and the "+
			"apply (exit %d) left the website %d that skip_destroy kept in no resource's state (state ids %v):\n%s",
			code, kept.ID, ids, strings.TrimSpace(out))
	}
}

// TestAccWebsite_keptHandOverByDomainChange: the same hand-over as
// TestAccWebsite_keptHandOverWithOtherSettings, but the website that takes
// the kept domain is another resource's replacement (its domain changes to
// the kept website's), not a new resource. keptPlans only notes plain
// creates (the second plan of a replacement is skipped), so the plan is not
// refused; the apply removes old (skip_destroy), deletes b's website, and
// b's create is refused: the kept website, with other settings than b's, is
// left in no state. (old depends on b in the first state, so that old's
// removal runs before b's destroy and create.) Now the plan pairs a
// domain change with the kept removal, and refuses other known settings.
func TestAccWebsite_keptHandOverByDomainChange(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain, other := env.Domain("kept-dc"), env.Domain("kept-dc-b")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "b" {
  domain = %q
}
resource "analytics_website" "old" {
  domain        = %q
  email_reports = false
  skip_destroy  = true
  depends_on    = [analytics_website.b]
}
`, other, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	kept := env.MustWebsite(t, domain)
	defer func() { _ = env.API(env.Key).DeleteWebsite(t.Context(), kept.ID) }()

	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "analytics_website" "b" {
  domain        = %q
  email_reports = true
}
`, domain)))
	planOut, planCode := w.Run("plan", "-no-color", "-out=tfplan")
	if planCode != 0 {
		t.Logf("plan refused (exit %d):\n%s", planCode, planOut)
		return
	}
	out, code := w.Run("apply", "-auto-approve", "-no-color", "tfplan")
	ids := stateIDs(t, w.Read("terraform.tfstate"))
	if got := env.MustWebsite(t, domain); got.ID != kept.ID {
		t.Fatalf("the server holds website %d for %q, want the kept %d", got.ID, domain, kept.ID)
	}
	if ids["old"] != fmt.Sprint(kept.ID) && ids["b"] != fmt.Sprint(kept.ID) {
		t.Errorf("the plan passed (b's domain changed to the kept website's, with other settings), and the apply "+
			"(exit %d) left the website %d that skip_destroy kept in no resource's state (state ids %v):\n%s",
			code, kept.ID, ids, strings.TrimSpace(out))
	}
}

// TestAccWebsite_keptHandOverDomainUnknownAtPlan: as
// TestAccWebsite_keptHandOverUnknownAtPlan, with new's domain
// unknown at plan (terraform_data.u's output, updated in this apply): the
// plan notes no create (keptPlans.note skips an unknown domain) and cannot
// look the domain up either, so it neither refuses nor warns; the apply
// removes old, new's create is refused, and the kept website, whose
// settings differ from new's, was in no state. Now new's create takes it
// over.
func TestAccWebsite_keptHandOverDomainUnknownAtPlan(t *testing.T) {
	env := acctest.New(t)
	w := acctest.NewWorkdir(t)
	domain := env.Domain("kept-unk-dom")
	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "terraform_data" "u" {
  input = "x"
}
resource "analytics_website" "old" {
  domain        = %q
  email_reports = false
  skip_destroy  = true
  depends_on    = [terraform_data.u]
}
`, domain)))
	w.MustRun(0, "apply", "-auto-approve")
	kept := env.MustWebsite(t, domain)
	defer func() { _ = env.API(env.Key).DeleteWebsite(t.Context(), kept.ID) }()

	w.Write("main.tf", env.Config(fmt.Sprintf(`resource "terraform_data" "u" {
  input = %q
}
resource "analytics_website" "new" {
  domain        = terraform_data.u.output
  email_reports = true
  skip_destroy  = true
}
`, domain)))
	planOut, planCode := w.Run("plan", "-no-color", "-out=tfplan")
	if planCode != 0 {
		t.Logf("plan refused (exit %d):\n%s", planCode, planOut)
		return
	}
	out, code := w.Run("apply", "-auto-approve", "-no-color", "tfplan")
	ids := stateIDs(t, w.Read("terraform.tfstate"))
	if got := env.MustWebsite(t, domain); got.ID != kept.ID {
		t.Fatalf("the server holds website %d for %q, want the kept %d", got.ID, domain, kept.ID)
	}
	if ids["old"] != fmt.Sprint(kept.ID) && ids["new"] != fmt.Sprint(kept.ID) {
		warned := strings.Contains(planOut, "Warning: Domain Already Held")
		t.Errorf("the plan passed (a create whose domain, unknown at plan, is the kept website's; plan warned of a "+
			"held domain: %t), and the apply (exit %d) left the website %d that skip_destroy kept in no resource's "+
			"state (state ids %v):\n%s", warned, code, kept.ID, ids, strings.TrimSpace(out))
	}
}
