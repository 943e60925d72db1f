package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tflogLogger hands the client's log messages to tflog, with the context
// of the Terraform operation they belong to. The client never puts the API
// key or a password in its fields; as a second line of defence, mask (the
// client's Secrets: the API key and the extra headers' values) is masked
// out of every message and field. It is set once the client exists, before
// anything is logged.
type tflogLogger struct {
	mask []string
}

func (l *tflogLogger) masked(ctx context.Context) context.Context {
	if len(l.mask) == 0 {
		return ctx
	}
	ctx = tflog.MaskMessageStrings(ctx, l.mask...)
	return tflog.MaskAllFieldValuesStrings(ctx, l.mask...)
}

func (l *tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(l.masked(ctx), msg, fields)
}

func (l *tflogLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	tflog.Info(l.masked(ctx), msg, fields)
}

func (l *tflogLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(l.masked(ctx), msg, fields)
}
