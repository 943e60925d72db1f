package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// TestMaskLogs_onlyWithoutStderrGate: the per-call log masks are set only
// where the process's standard error does not pass the redactor (the tests'
// in-process provider, Windows). terraform-plugin-log applies each mask to
// each log call's message and fields before it checks the level, so with
// the logs off a log call cost about 7 ms once 1,000 website passwords were
// known, on every call of a plan; in the release binary every line it
// writes passes the standard error's gate anyway. Not run in parallel: it
// sets stderrGated.
func TestMaskLogs_onlyWithoutStderrGate(t *testing.T) {
	const secret = "mask-logs-test-secret-Qw8Er5Ty"
	redact.Add(secret)
	saved := stderrGated
	t.Cleanup(func() { stderrGated = saved })
	for _, gated := range []bool{false, true} {
		stderrGated = func() bool { return gated }
		var out bytes.Buffer
		ctx := maskLogs(tflogtest.RootLogger(context.Background(), &out))
		tflog.Info(ctx, "the secret is "+secret)
		masked := !strings.Contains(out.String(), secret)
		if masked == gated {
			t.Errorf("standard error gated: %v; the log line masked: %v (%s)", gated, masked, strings.TrimSpace(out.String()))
		}
	}
}
