package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

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

// tflogLogger hands the client's log messages to tflog, with the context
// of the Terraform operation they belong to. The client never puts the API
// key or a password in its fields.
type tflogLogger struct{}

func (tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(ctx, msg, fields)
}

func (tflogLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	tflog.Info(ctx, msg, fields)
}

func (tflogLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(ctx, msg, fields)
}

// addCreateError reports a failed create; a create whose outcome could not
// be told gets its own diagnostic, since the website may exist.
func addCreateError(diags *diag.Diagnostics, domain string, err error) {
	var unknown *client.CreateOutcomeUnknownError
	if errors.As(err, &unknown) {
		diags.AddError("Website May Have Been Created",
			fmt.Sprintf("%s. Check the analytics web interface: if the website %q is there, import it "+
				"(terraform import <resource address> %s, or an import block with id = %q) before applying again; "+
				"otherwise apply again once the server answers.", unknown.Error(), domain, domain, domain))
		return
	}
	addAPIError(diags, "create", domain, err)
}
