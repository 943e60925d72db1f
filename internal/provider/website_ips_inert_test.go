package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The web interface stores exclude_ips entries the provider never writes:
// "10.0.0.300", or an address with stray spaces, which the server never
// matches. A configuration that copies them (the adoption guide's recipe)
// plans, with a warning, and an apply that adds an address keeps them as
// written, though the server trims the ends of the list; an entry the
// server does not hold yet is refused, and so is a list whose spaces no
// order of its lines keeps.
func TestAccWebsite_webTypedIPsPlan(t *testing.T) {
	env := acctest.New(t)
	domain := env.Domain("typed-ips")
	w := acctest.NewWorkdir(t)
	config := func(ips ...string) string {
		quoted := make([]string, len(ips))
		for i, s := range ips {
			quoted[i] = fmt.Sprintf("%q", s)
		}
		return env.Config(fmt.Sprintf("resource \"analytics_website\" \"test\" {\n  domain      = %q\n"+
			"  exclude_ips = [%s]\n}\n", domain, strings.Join(quoted, ", ")))
	}
	w.Write("main.tf", config("9.9.9.9"))
	w.MustRun(0, "apply", "-auto-approve")
	typed := []string{"10.0.0.300", "1.2.3.4 ", " 5.6.7.8", "9.9.9.9"}
	env.Change(t, domain, func(in *client.WebsiteInput) { in.ExcludeIPs = typed })
	if got := env.MustWebsite(t, domain).ExcludeIPs; !sameStrings(got, typed) {
		t.Fatalf("the web interface's list is stored as %q, want %q", got, typed)
	}

	w.Write("main.tf", config(typed...))
	out := w.MustRun(0, "plan", "-detailed-exitcode")
	if !strings.Contains(out, "IP Exclusion Never Matches") || !strings.Contains(out, `"10.0.0.300"`) {
		t.Errorf("the plan of the list as stored does not warn that its entries never match:\n%s", out)
	}

	w.Write("main.tf", config(append(typed, "10.0.0.7")...))
	w.MustRun(0, "apply", "-auto-approve")
	if got, want := env.MustWebsite(t, domain).ExcludeIPs, append(typed, "10.0.0.7"); !sameStrings(got, want) {
		t.Errorf("after an apply that adds 10.0.0.7 the server holds %q, want %q", got, want)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")

	for _, tc := range []struct {
		ips  []string
		want string
	}{
		{append(typed, "10.0.0.301"), `"10.0.0.301" is not an IPv4 or IPv6 address`},
		{[]string{" 5.6.7.8"}, "cannot be stored as written"},
	} {
		w.Write("main.tf", config(tc.ips...))
		out, code := w.Run("plan")
		if code == 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), tc.want) {
			t.Errorf("exclude_ips = %q: exit code %d, want an error %q:\n%s", tc.ips, code, tc.want, out)
		}
	}

	kept := []string{"1.2.3.4 ", " 5.6.7.8"}
	w.Write("main.tf", config(kept...))
	w.MustRun(0, "apply", "-auto-approve")
	if got := env.MustWebsite(t, domain).ExcludeIPs; !sameStrings(got, kept) {
		t.Errorf("after an apply of %q the server holds %q", kept, got)
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
	w.DestroyIfLive()
}
