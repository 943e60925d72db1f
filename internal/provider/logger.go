package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// tflogLogger hands the client's log messages to tflog, with the context
// of the Terraform operation they belong to. The client never puts the API
// key or a password in its fields; as a second line of defence, the
// message and every string field pass through the redactor (which, unlike
// the gate's log masks, also finds a secret cut short).
type tflogLogger struct{}

func (tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(ctx, redact.String(msg), redactFields(fields))
}

func (tflogLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	tflog.Info(ctx, redact.String(msg), redactFields(fields))
}

func (tflogLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(ctx, redact.String(msg), redactFields(fields))
}

// redactFields is fields with every string value (and error) redacted.
func redactFields(fields map[string]any) map[string]any {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		switch t := v.(type) {
		case string:
			out[k] = redact.String(t)
		case error:
			out[k] = redact.String(t.Error())
		default:
			out[k] = v
		}
	}
	return out
}
