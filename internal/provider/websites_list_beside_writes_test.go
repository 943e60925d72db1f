package provider

import (
	"fmt"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// The list of every website (analytics_websites, read at apply
// after a gate) runs beside 20 creates and 5 deletes of the same apply
// (-parallelism=10), with 250 websites held (3 pages, read twice): the
// list holds this process's writes apart (holdWrites) and never fails
// as "changed" because of them.
func TestAccWebsites_listBesideWrites(t *testing.T) {
	acctest.NeedsEmulator(t, "seeds 250 websites")
	env, w := heldEnv(t, 250, "old")
	prefix := env.Domain("lb")
	hcl := func(round string, from, to int) string {
		return env.Config(fmt.Sprintf(`
resource "terraform_data" "gate" {
  input = %q
}
data "analytics_websites" "all" {
  depends_on = [terraform_data.gate]
}
resource "analytics_website" "w" {
  for_each = toset([for i in range(%d, %d) : "c${i}.%s"])
  domain   = each.value
}
output "n" {
  value = length(data.analytics_websites.all.websites)
}
`, round, from, to, prefix))
	}
	for i, s := range []struct {
		from, to int
	}{{0, 20}, {5, 25}, {0, 3}} {
		w.Write("main.tf", hcl(fmt.Sprint(i), s.from, s.to))
		out, code := w.Run("apply", "-auto-approve", "-parallelism=10", "-no-color")
		if code != 0 {
			t.Fatalf("step %d: apply exit %d:\n%s", i, code, out)
		}
	}
}
