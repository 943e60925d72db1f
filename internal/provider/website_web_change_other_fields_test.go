package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccWebsite_updateKeepsLaterWebPrivacy: an update sends only what its
// plan changes. A saved plan changes email_reports only; after it, the web
// interface makes the statistics page private and turns bot exclusion
// off; the apply of the saved plan keeps both, warns, and the next plan
// shows them as drift.
func TestAccWebsite_updateKeepsLaterWebPrivacy(t *testing.T) {
	env, domain, w := emulatedWorkdir(t, "changes a website between a saved plan and its apply", "later-privacy")
	config := func(email bool) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain        = %q\n  email_reports = %t\n", domain, email)))
	}
	w.Write("main.tf", config(false))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID

	w.Write("main.tf", config(true))
	w.MustRun(0, "plan", "-out=tfplan")
	// After the plan, the web interface makes the statistics page private
	// and turns bot exclusion off.
	env.UpdateWebsite(id, func(x *emulator.Website) { x.Privacy, x.ExcludeBots = ptr(1), ptr(0) })
	out := w.MustRun(0, "apply", "-no-color", "tfplan")
	for _, name := range []string{"privacy", "exclude_bots"} {
		if !strings.Contains(out, name+" Changed Since the Plan") {
			t.Errorf("the apply does not warn that %s changed since the plan:\n%s", name, out)
		}
	}
	stored, _ := env.Website(id)
	var undone []string
	if stored.Privacy == nil || *stored.Privacy != 1 {
		undone = append(undone, fmt.Sprintf("privacy is %v (the web interface set 1, private)", deref(stored.Privacy)))
	}
	if stored.ExcludeBots == nil || *stored.ExcludeBots != 0 {
		undone = append(undone, fmt.Sprintf("exclude_bots is %v (the web interface set 0)", deref(stored.ExcludeBots)))
	}
	if len(undone) > 0 {
		t.Errorf("the apply of a plan that changed only email_reports wrote over changes the web interface made "+
			"after the plan: %s\n%s", strings.Join(undone, "; "), strings.TrimSpace(out))
	}
	if plan := w.MustRun(2, "plan", "-detailed-exitcode", "-no-color"); !strings.Contains(plan, `"private"`) {
		t.Errorf("the next plan does not show the web interface's privacy as drift:\n%s", plan)
	}
	w.DestroyIfLive()
}

func deref(p *int) any {
	if p == nil {
		return "NULL"
	}
	return *p
}
