package client_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// A create whose POST gets a 500 and whose lookup finds two websites with
// the domain reports them in a DuplicateCreateError that carries the 500:
// the caller names the cause when it can tell more than the client (a
// website skip_destroy kept holds the domain). Both ways there: neither
// website passes as this create's, or a fresh one with the settings sent
// does (the client adopts it, and then cannot remove the other).
func TestCreateWebsiteDuplicateCarriesTheLastFailure(t *testing.T) {
	t.Parallel()
	sent := wire.Settings{Privacy: ptr(1), Email: ptr(1), ExcludeBots: ptr(1), ExcludeIPs: "10.0.0.0/8\n203.0.113.7"}
	for name, fresh := range map[string]bool{"none adopted": false, "one adopted": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, c, log := faultyEnv(t, emulator.Faults{ErrorRate: 1, ErrorStatuses: []int{500}, Methods: []string{"POST"}},
				emulator.Options{})
			srv.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "example.com", CreatedAt: time.Now().Add(-time.Hour)})
			second := emulator.Website{Domain: "example.com", Settings: sent, CreatedAt: time.Now().Add(-time.Hour)}
			if fresh {
				second.CreatedAt = time.Time{} // now
			}
			srv.Seed(emulator.DefaultAPIKey, second)
			_, err := c.CreateWebsite(ctx(t), siteInput("example.com"))
			var dup *client.DuplicateCreateError
			if !errors.As(err, &dup) {
				t.Fatalf("err = %v, want a DuplicateCreateError\nlogs:\n%s", err, log.all())
			}
			apiErr, ok := client.AsAPIError(dup.Err)
			if !ok || apiErr.StatusCode != http.StatusInternalServerError {
				t.Errorf("the duplicate's Err = %v, want the POST's 500", dup.Err)
			}
			if adopted := strings.Contains(log.all(), "adopted the website this create stored"); adopted != fresh {
				t.Errorf("adopted one: %v, want %v\nlogs:\n%s", adopted, fresh, log.all())
			}
			if n := len(srv.Websites()); n != 2 {
				t.Errorf("%d websites, want the 2 seeded", n)
			}
		})
	}
}
