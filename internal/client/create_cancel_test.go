package client_test

import (
	"context"
	"errors"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// A create cancelled before its POST was sent (Ctrl-C while it waits for
// the throttle: Terraform cancels the provider's requests) stored nothing,
// and says so: not an unknown outcome, which would make the provider leave
// a website that skip_destroy kept out of the state and send the user to
// look for a website that cannot exist.
func TestCreateWebsite_cancelledBeforeSendIsNotUnknown(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	env.emu.ResetStats()
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	_, err := env.c.CreateWebsite(c, client.WebsiteInput{Domain: "cancelled.example.com"})
	if s := env.emu.Stats(); s.ByMethod["POST"] != 0 {
		t.Fatalf("the cancelled create sent %d POST", s.ByMethod["POST"])
	}
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a create that sent nothing reports an unknown outcome: %v", err)
	}
}
