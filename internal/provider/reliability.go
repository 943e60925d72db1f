package provider

import (
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// EnvTestRetryWaitMin, for tests only, replaces the client's first backoff
// (1s) by a Go duration such as "10ms", so that tests against a faulty
// emulator run quickly; the maximum backoff becomes 16 times that (at most
// the default 30s). Waits the server asks for (Retry-After) are unchanged.
// It is not a provider setting because no real pipeline should retry
// faster than the default.
const EnvTestRetryWaitMin = "ANALYTICS_TEST_RETRY_WAIT_MIN"

// retryOptions builds the client's retry and pacing options from the
// provider configuration.
func retryOptions(cfg providerModel, diags *diag.Diagnostics) *client.RetryOptions {
	opts := &client.RetryOptions{MaxRetries: client.DefaultMaxRetries}
	if !cfg.MaxRetries.IsNull() {
		opts.MaxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	if !cfg.RequestsPerMinute.IsNull() {
		opts.RequestsPerMinute = int(cfg.RequestsPerMinute.ValueInt64())
	}
	if v := os.Getenv(EnvTestRetryWaitMin); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			diags.AddError("Invalid "+EnvTestRetryWaitMin,
				fmt.Sprintf("The %s environment variable (meant for tests only) must be a positive Go duration such as "+
					"\"10ms\", got %q. Unset it to use the default backoff.", EnvTestRetryWaitMin, v))
			return nil
		}
		opts.WaitMin = d
		opts.WaitMax = min(16*d, client.DefaultRetryWaitMax)
	}
	if opts.MaxRetries < 0 {
		diags.AddAttributeError(path.Root("max_retries"), "Invalid Max Retries", "max_retries must be 0 or more.")
	}
	return opts
}
