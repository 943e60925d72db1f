package repotest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// The guide "Tracking a website" (templates/guides/tracking.md.tmpl): its
// checks, as the guide shows them, warn while a website records nothing
// and stop once a page of it is visited.

// checkWarnings are the warnings of failed check assertions among diags
// whose detail contains want; every other diagnostic fails t.
func checkWarnings(t *testing.T, diags []acctest.PlanDiag, want string) []acctest.PlanDiag {
	t.Helper()
	var out []acctest.PlanDiag
	for _, d := range diags {
		if d.Severity != "warning" || !strings.Contains(d.Detail, want) {
			t.Errorf("unexpected diagnostic: %+v", d)
			continue
		}
		out = append(out, d)
	}
	return out
}

// TestAccGuide_trackingCheck: the apply that creates the website ends with
// the check's warning; a visit makes it go.
func TestAccGuide_trackingCheck(t *testing.T) {
	acctest.CLIDependent(t, "the guide's check block: each CLI reports a failed assertion")
	s := acctest.NewCLIEnv(t)
	domain := s.Domain("shop")
	s.Write(strings.ReplaceAll(guideFile(t, "tracking", "main.tf"), "shop.example.com", domain))
	out := s.W.MustRun(0, "apply", "-auto-approve")
	if !strings.Contains(out, "Check block assertion failed") || !strings.Contains(out, domain+" recorded no pageview since") {
		t.Errorf("the apply of a new website did not warn that it records nothing:\n%s", out)
	}
	if got := checkWarnings(t, s.W.PlanDiags(), domain+" recorded no pageview since"); len(got) != 1 {
		t.Errorf("a plan before any visit: %d warnings of the check, want 1", len(got))
	}

	s.Pageview(t, domain)
	s.SkipUnlessInWindow(t, s.StateID(t, "shop"))
	if diags := s.W.PlanDiags(); len(diags) != 0 {
		t.Errorf("a plan after a visit warned: %+v", diags)
	}
	s.Destroy(t)
}

// TestAccGuide_trackingCheckMany: the check of websites made with
// for_each names those that record nothing, and only those.
func TestAccGuide_trackingCheckMany(t *testing.T) {
	acctest.CLIDependent(t, "the guide's check block: each CLI reports a failed assertion")
	s := acctest.NewCLIEnv(t)
	shop, blog := s.Domain("shop"), s.Domain("blog")
	vars, err := json.Marshal(map[string]any{"domains": []string{shop, blog}})
	if err != nil {
		t.Fatal(err)
	}
	s.W.Write("terraform.tfvars.json", string(vars))
	s.Apply(guideFile(t, "tracking-many", "main.tf"))

	s.Pageview(t, shop)
	site, err := s.FindWebsite(s.Key, shop)
	if err != nil {
		t.Fatal(err)
	}
	s.SkipUnlessInWindow(t, site.ID)
	got := checkWarnings(t, s.W.PlanDiags(), "No pageview recorded yesterday or today (UTC) for: "+blog+".")
	if len(got) != 1 {
		t.Errorf("%d warnings naming %s alone, want 1", len(got), blog)
	}
	s.Destroy(t)
}
