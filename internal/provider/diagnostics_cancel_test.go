package provider

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// cancelAtRetry cancels the operation when the transport announces a
// retry, as a Ctrl-C during the wait before it would.
type cancelAtRetry struct{ cancel context.CancelFunc }

func (cancelAtRetry) Debug(context.Context, string, map[string]any) {}
func (cancelAtRetry) Info(context.Context, string, map[string]any)  {}
func (l cancelAtRetry) Warn(_ context.Context, msg string, _ map[string]any) {
	if msg == "retrying request" {
		l.cancel()
	}
}

// A cancelled operation (Ctrl-C: Terraform cancels the provider's
// requests) says it was cancelled, not that the API could not be reached,
// which sends the user to check base_url and the network. A cancelled
// create says whether a website may have been stored: only when a request
// may have reached the application.
func TestCancelledOperationDiagnostics(t *testing.T) {
	t.Parallel()
	throttled := func(retryAfter string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", retryAfter)
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"message":"Too Many Attempts."}`)
		}
	}
	for name, tc := range map[string]struct {
		// handler answers the POST; it gets the operation's cancel.
		handler func(cancel context.CancelFunc) http.HandlerFunc
		atRetry bool // cancel when the transport announces a retry
		want    string
	}{
		"cancelled in the Retry-After wait of its own 429": {
			handler: func(context.CancelFunc) http.HandlerFunc { return throttled("30") },
			atRetry: true,
			want:    "Create Cancelled",
		},
		"cancelled while the server holds the store": {
			handler: func(cancel context.CancelFunc) http.HandlerFunc {
				var n atomic.Int32
				return func(w http.ResponseWriter, r *http.Request) {
					if n.Add(1) == 1 {
						throttled("0")(w, r)
						return
					}
					_, _ = io.Copy(io.Discard, r.Body) // then the server notices a closed connection
					cancel()
					<-r.Context().Done()
				}
			},
			want: "Create Cancelled; Website May Have Been Created",
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			srv := httptest.NewServer(tc.handler(cancel))
			defer srv.Close()
			opts := client.Options{Timeout: 5 * time.Second,
				Retry: &client.RetryOptions{MaxRetries: 4, WaitMin: time.Millisecond, WaitMax: 5 * time.Millisecond}}
			if tc.atRetry {
				opts.Logger = cancelAtRetry{cancel}
			}
			c, err := client.New(srv.URL, "key", opts)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.CreateWebsite(ctx, client.WebsiteInput{Domain: "cancelled.example"})
			var diags diag.Diagnostics
			addCreateError(&diags, "cancelled.example", false, err)
			if len(diags) != 1 || diags[0].Summary() != tc.want {
				t.Errorf("%v:\ngot  %v\nwant one error %q", err, diags, tc.want)
			}
		})
	}
	t.Run("read", func(t *testing.T) {
		t.Parallel()
		srv := httptest.NewServer(http.NotFoundHandler())
		defer srv.Close()
		c, err := client.New(srv.URL, "key", client.Options{Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err = c.GetWebsite(ctx, 1)
		var diags diag.Diagnostics
		addAPIError(&diags, "read", "x.example", err)
		if len(diags) != 1 || diags[0].Summary() != "Operation Cancelled" {
			t.Errorf("%v:\ngot %v", err, diags)
		}
	})
}
