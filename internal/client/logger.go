package client

import "context"

// Logger receives what the client does on its own: retries, waits, and
// creates it adopted. Fields name the method, the path, the status, the
// attempt and the wait; never the API key, a password or a request body.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Info(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

type nopLogger struct{}

func (nopLogger) Debug(context.Context, string, map[string]any) {}
func (nopLogger) Info(context.Context, string, map[string]any)  {}
func (nopLogger) Warn(context.Context, string, map[string]any)  {}
