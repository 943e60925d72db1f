package repotest

import (
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// TestAccGuide_adoptAllAtDomain: a website whose domain holds "@"
// (a URL with user information pasted into the web interface: the server
// removes "https://" and, since every label but the last may hold any
// character, stores "user:secret@shop.example.com" as given). a810282 makes
// every other character before the last label a stored-only domain, warned
// about for an existing website, but not "@": the guide's one-plan
// adoption (for_each over the data source, import blocks) failed for the
// whole account on this one website's domain (review rev44am). The recipe
// leaves such a website out now.
func TestAccGuide_adoptAllAtDomain(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds a domain the web interface stores")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	env.Seed(env.Key, emulator.Website{Domain: "adopt-000.example.com"})
	env.Seed(env.Key, emulator.Website{Domain: "user:s3cr3t-pw@adopt-001.example.com"})
	w.Write("main.tf", env.ProviderBlock()+guideFile(t, "adopt-all", "main.tf"))
	out, code := w.Run("plan", "-no-color")
	if code != 0 {
		t.Errorf("the guide's plan of an account with a website whose domain holds \"@\": exit code %d, want "+
			"the imports planned (at most with a warning):\n%s", code, out)
	}
}

// TestAccGuide_adoptGeneratedNameClash: the guide's
// one-block-per-website recipe names each resource
// site_${replace(w.domain, "/[^a-z0-9_]/", "_")}: "shop-eu.example.com"
// and "shop.eu.example.com" (and "shop eu.example.com", a stored-only
// domain since a810282) got the same address, and the plan failed on the
// duplicate import target for the whole account (review rev44am). The
// names end with the website's id now.
func TestAccGuide_adoptGeneratedNameClash(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds domains the web interface stores")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	for _, d := range []string{"shop-eu.example.com", "shop.eu.example.com"} {
		env.Seed(env.Key, emulator.Website{Domain: d})
	}
	w.Write("main.tf", env.ProviderBlock()+guideFile(t, "adopt-generated", "main.tf"))
	w.MustRun(0, "apply", "-auto-approve")
	imports := w.MustRun(0, "output", "-raw", "import_blocks")
	w.Write("imports.tf", imports)
	out, code := w.Run("plan", "-no-color", "-generate-config-out=generated.tf")
	if code != 0 {
		t.Errorf("the guide's recipe for two websites %q and %q: plan exit code %d, want both imported; the "+
			"import blocks:\n%s\n%s", "shop-eu.example.com", "shop.eu.example.com", code, imports, out)
	}
}
