package provider

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/export"
)

func TestDateRangeProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from, to string
		ok       bool
	}{
		{"", "", true}, {"2024-01-01", "", true}, {"", "2024-01-01", true},
		{"2024-01-01", "2024-01-01", true}, {"2024-01-01", "2024-12-31", true}, {"2024-02-01", "2024-01-31", false},
	} {
		p := dateRangeProblem(tc.from, tc.to)
		if (p == "") != tc.ok || (!tc.ok && !strings.Contains(p, "Swap them")) {
			t.Errorf("dateRangeProblem(%q, %q) = %q", tc.from, tc.to, p)
		}
	}
}

// Every failure of an export is one error that names its cause and says
// that nothing was left behind (or, for the website not found, written).
func TestExportDiagnostics(t *testing.T) {
	t.Parallel()
	unavailable := &client.APIError{Kind: client.ErrServer, Method: "GET", Path: "/stats/3", StatusCode: 503, Message: "Service Unavailable"}
	throttled := &client.APIError{Kind: client.ErrRateLimited, Method: "GET", Path: "/stats/3", StatusCode: 429,
		Message: "Too Many Attempts.", RetryAfter: time.Minute}
	notFound := &client.APIError{Kind: client.ErrNotFound, Method: "GET", Path: "/websites/3", StatusCode: 404, Message: "Resource not found."}
	tests := []struct {
		name string
		add  func(*diag.Diagnostics)
		want []string
	}{
		{"website not found by id", func(d *diag.Diagnostics) { addExportWebsiteError(d, "3", "", notFound) },
			[]string{"Website Not Found", "no website with id 3", "website_id", "Nothing was written"}},
		{"website not found by domain", func(d *diag.Diagnostics) { addExportWebsiteError(d, "", "a.example", notFound) },
			[]string{"Website Not Found", `exact domain "a.example"`}},
		{"maintenance", func(d *diag.Diagnostics) {
			addExportReadError(d, "a.example", "page", 9, time.Minute, unavailable, exportNothingLeft)
		},
			[]string{"Analytics Server Unavailable", `while reading "page" (request 9 of the export)`, "maintenance mode", exportNothingLeft}},
		{"maintenance until the time limit", func(d *diag.Diagnostics) {
			addExportReadError(d, "a.example", "page", 9, time.Minute,
				&client.DeadlineError{Attempts: 4, Wait: 8 * time.Second, Left: time.Second, Reason: "retry", Last: errors.New("HTTP 503: Service Unavailable"), Status: 503}, exportNothingLeft)
		}, []string{"Analytics Server Unavailable", "maintenance mode", exportNothingLeft}},
		{"throttle past the timeout", func(d *diag.Diagnostics) {
			addExportReadError(d, "a.example", "city", 12, 5*time.Second,
				&client.DeadlineError{Attempts: 1, Wait: time.Minute, Left: 4 * time.Second, Reason: "the server's rate limit", Last: throttled}, exportNothingLeft)
		}, []string{"Statistics Export Timed Out", `reading "city" after 12 requests, within timeout = "5s"`, "Raise the action's timeout", exportNothingLeft}},
		{"throttled", func(d *diag.Diagnostics) {
			addExportReadError(d, "a.example", "os", 4, time.Minute, throttled, exportNothingLeft)
		},
			[]string{"Rate Limit Exceeded", `While reading "os"`, exportNothingLeft}},
		{"old build", func(d *diag.Diagnostics) {
			addExportReadError(d, "a.example", "pageviews", 1, time.Minute, client.ErrStatisticsUnsupported, exportNothingLeft)
		}, []string{"Statistics Not Available", "web interface", exportNothingLeft}},
		{"folder exists", func(d *diag.Diagnostics) {
			addExportWriteError(d, exportSite("a.example", ""), exportTarget{"directory", "/x"}, fmt.Errorf("%w: /x/a.example-1", export.ErrExists), exportNothingLeft)
		}, []string{"Statistics Export Folder Exists", "never writes into or over", "nothing was changed there"}},
		{"disk full", func(d *diag.Diagnostics) {
			addExportWriteError(d, exportSite("a.example", ""), exportTarget{"directory", "/x"}, &os.PathError{Op: "write", Path: "/x/a", Err: syscall.ENOSPC}, exportNothingLeft)
		}, []string{"Unable to Write the Statistics Export", `directory = "/x"`, "no space left on device", "free space", exportNothingLeft}},
		{"wrong region", func(d *diag.Diagnostics) {
			addExportWriteError(d, exportSite("a.example", ""), exportTarget{"destination", "s3://b12/x"},
				&smithy.GenericAPIError{Code: "AuthorizationHeaderMalformed", Message: "expecting 'eu-west-1'"}, exportNothingLeft)
		}, []string{"Statistics Export Bucket in Another Region", `destination = "s3://b12/x"`, "region=", "eu-west-1", exportNothingLeft}},
		{"cleanup refused", func(d *diag.Diagnostics) {
			addExportWriteError(d, exportSite("a.example", ""), exportTarget{"destination", "s3://b12/x"}, errors.New("InternalError"),
				exportLeftBehind(&export.CleanupError{Where: "s3://b12/x/a.example-1/", Left: []string{"s3://b12/x/a.example-1/page.json"},
					Err: errors.New("AccessDenied")}))
		}, []string{"could not all be removed", "s3://b12/x/a.example-1/page.json may remain in s3://b12/x/a.example-1/",
			"(AccessDenied)", "delete them by hand"}},
		{"delete refused", func(d *diag.Diagnostics) { addDeleteAfterFailedExport(d, "a.example", "3", "disk full") },
			[]string{"Website Kept: Its Statistics Export Failed", `Refusing to delete the website "a.example" (id 3)`, "(disk full)",
				"remove the action from its action_trigger"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkDiagnostic(t, tc.add, diag.SeverityError, tc.want)
		})
	}
}

// A failed export keeps its website from deletion by id, or by domain when
// the export could not learn the id.
func TestExportFailures(t *testing.T) {
	t.Parallel()
	var f exportFailures
	if r := f.reason(3, "a.example"); r != "" {
		t.Errorf("no failure yet: %q", r)
	}
	f.fail(3, "a.example", errors.New("disk full"))
	f.fail(0, "b.example", errors.New("timed out"))
	for _, tc := range []struct {
		id     int64
		domain string
		want   string
	}{
		{3, "a.example", "disk full"}, {3, "", "disk full"}, {0, "b.example", "timed out"}, {9, "b.example", "timed out"},
		{9, "c.example", ""}, {0, "", ""},
	} {
		if got := f.reason(tc.id, tc.domain); got != tc.want {
			t.Errorf("reason(%d, %q) = %q, want %q", tc.id, tc.domain, got, tc.want)
		}
	}
}

// A failed export whose cleanup fails too says what remains, and where,
// instead of saying that nothing was left behind.
func TestExportAbandon_cleanupFails(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	store := export.NewFolderStore(parent)
	w, err := export.NewWriter(t.Context(), store, "a.example-1", export.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStatistic(t.Context(), "pageviews", nil); err != nil {
		t.Fatal(err)
	}
	// A file that cannot be removed (even by root): a folder with a file
	// in it, where the export wrote pageviews.json.
	file := filepath.Join(parent, "a.example-1", "pageviews.json")
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(file, "x"), 0o750); err != nil {
		t.Fatal(err)
	}
	a := &statisticsExportAction{}
	left := a.abandon(t.Context(), w, &client.Website{ID: 3, Domain: "a.example"}, errors.New("disk full"), map[string]any{})
	for _, want := range []string{"could not all be removed", "pageviews.json may remain in " + filepath.Join(parent, "a.example-1"),
		"delete them by hand"} {
		if !strings.Contains(left, want) {
			t.Errorf("the message does not say %q:\n%s", want, left)
		}
	}
	if strings.Contains(left, exportNothingLeft) {
		t.Errorf("the message says that nothing was left:\n%s", left)
	}
}
