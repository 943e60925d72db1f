package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// Adopting websites as the guide does (import blocks
// and -generate-config-out) with values the web interface stores and the
// provider would never write. The generated configuration must validate
// and plan, as TestAccWebsite_generatedConfig expects for ordinary values:
// otherwise what the web interface stored blocks the adoption's plan.
// A line repeated as typed is folded on read; the same address typed in
// two spellings ("2001:DB8::1" and "2001:db8::1"), which the application
// matches alike just as well, is not, and the generated configuration
// then fails with "Duplicate IP Exclusion". (Entries with white space are
// left out here: the application never matches them, so the read is
// right to keep them apart, and the error asks for the fix.)
func TestAccWebsite_generatedConfigWebValues(t *testing.T) {
	acctest.NeedsEmulator(t, "stores values as the web interface does, past the API's input handling")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	cases := map[string]emulator.Website{
		"repeated":  {Settings: wire.Settings{ExcludeIPs: "1.2.3.4\n1.2.3.4"}},
		"spellings": {Settings: wire.Settings{ExcludeIPs: "2001:DB8::1\n2001:db8::1"}},
		"nulls":     {},
		"odd":       {Settings: wire.Settings{Privacy: ptr(2), Password: "0", Email: ptr(7), ExcludeBots: ptr(0)}, Favorite: true},
	}
	var hcl strings.Builder
	hcl.WriteString(env.ProviderBlock())
	for name, site := range cases {
		site.Domain = name + ".gen-web-values.example.com"
		s := env.Seed(env.Key, site)
		fmt.Fprintf(&hcl, "import {\n  to = analytics_website.%s\n  id = \"%d\"\n}\n", name, s.ID)
	}
	w.Write("main.tf", hcl.String())
	out, code := w.Run("plan", "-generate-config-out=generated.tf", "-no-color")
	if code != 0 {
		t.Fatalf("plan -generate-config-out: exit code %d:\n%s\ngenerated:\n%s", code, out, w.Read("generated.tf"))
	}
	w.MustRun(0, "validate")
}
