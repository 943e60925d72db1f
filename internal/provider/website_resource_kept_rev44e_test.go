package provider

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// Review rev44e (of e497ae9): a tainted website kept by skip_destroy whose
// replacement's create ends with no clear answer (a 500 to the POST, the
// lookups 503) while the kept website still answers its read. The restore
// reasons that no new website can have been stored while the kept one
// holds the domain, and puts it back into the state; but the error still
// leads with the create's own "Website May Have Been Created": "The
// website may exist on the server although it is not in the Terraform
// state", "if the website ... is there, import it ... before applying
// again". The website the user then finds in the web interface is the one
// in the state: the import the message asks for fails ("Resource already
// managed"), and the user is sent to look for a website that cannot exist.
func TestAccWebsite_rev44eKeptRestoredAfterUnknownSaysMayHaveBeenCreated(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores and 503 to the lookups")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(unknownCreates(&on)))
	w, domain, id, out, code := keptApply(t, env, "kept-unknown-msg", on.Store)
	flat := strings.Join(strings.Fields(out), " ")
	restored := strings.Contains(flat, "It is now in this resource's state")
	for _, lie := range []string{"May Have Been Created", "may exist on the server although it is not in the Terraform state",
		"before applying again"} {
		if restored && strings.Contains(flat, lie) {
			t.Errorf("the kept website is back in the state, yet the error says %q (exit code %d):\n%s", lie, code, out)
		}
	}
	wantKeptInState(t, env, w, domain, id, out, code, "a create with no clear answer")
}
