package provider

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

func TestExportFolderName(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 5, 1, 12, 15, 0, 0, time.FixedZone("CEST", 2*3600))
	for domain, want := range map[string]string{
		"shop.example.com":    "shop.example.com-20240501T101500Z-0a1b2c3d",
		"10.0.0.1":            "10.0.0.1-20240501T101500Z-0a1b2c3d",
		"../../etc/passwd":    "_.._etc_passwd-20240501T101500Z-0a1b2c3d",
		"a/b\\c:d":            "a_b_c_d-20240501T101500Z-0a1b2c3d",
		"":                    "website-20240501T101500Z-0a1b2c3d",
		"..":                  "website-20240501T101500Z-0a1b2c3d",
		"Münster.example.com": "M_nster.example.com-20240501T101500Z-0a1b2c3d",
	} {
		got := exportFolderName(domain, at, "0a1b2c3d")
		if got != want {
			t.Errorf("exportFolderName(%q) = %q, want %q", domain, got, want)
		}
		if filepath.Base(got) != got || strings.HasPrefix(got, ".") {
			t.Errorf("exportFolderName(%q) = %q is not one visible path element", domain, got)
		}
	}
}

var writerRows = []client.StatisticsRow{{Value: "/", Count: 3}, {Value: `/a,"b"`, Count: 1}, {Value: "/é\n", Count: 12}}

// Each format writes what its readers expect: quoting in csv, no HTML
// escaping in json.
func TestExportWriter_formats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format, name string
		rows         []client.StatisticsRow
		want         string
	}{
		{exportFormatJSON, "page", writerRows,
			"[\n  {\n    \"count\": 3,\n    \"value\": \"/\"\n  },\n  {\n    \"count\": 1,\n    \"value\": \"/a,\\\"b\\\"\"\n  },\n" +
				"  {\n    \"count\": 12,\n    \"value\": \"/é\\n\"\n  }\n]\n"},
		{exportFormatCSV, "page", writerRows, "value,count\n/,3\n\"/a,\"\"b\"\"\",1\n\"/é\n\",12\n"},
		{exportFormatCSV, "pageviews", []client.StatisticsRow{{Value: "2024-01-05", Count: 7}}, "date,count\n2024-01-05,7\n"},
		{exportFormatJSON, "visitors", nil, "[]\n"},
		{exportFormatJSON, "referrer", []client.StatisticsRow{{Value: "<a>&", Count: 1}}, "[\n  {\n    \"count\": 1,\n    \"value\": \"<a>&\"\n  }\n]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.format+" "+tc.name, func(t *testing.T) {
			t.Parallel()
			store := newFolderStore(t.TempDir())
			w, err := newExportWriter(t.Context(), store, "x", tc.format)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.writeStatistic(t.Context(), tc.name, tc.rows); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(store.dir, tc.name+"."+tc.format))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// Files appear whole under their names (no temporary file left), the
// manifest last; a folder that exists is refused and left alone.
func TestExportWriter_atomicAndExclusive(t *testing.T) {
	t.Parallel()
	parent := filepath.Join(t.TempDir(), "new", "exports") // created on demand
	store := newFolderStore(parent)
	w, err := newExportWriter(t.Context(), store, "shop-1", exportFormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.writeStatistic(t.Context(), "page", writerRows); err != nil {
		t.Fatal(err)
	}
	if err := w.writeManifest(t.Context(), exportManifest{FormatVersion: 1, Domain: "shop"}); err != nil {
		t.Fatal(err)
	}
	if got := exportFolders(t, store.dir); !slices.Equal(got, []string{"manifest.json", "page.json"}) {
		t.Errorf("the folder holds %v, want the two files and no temporary one", got)
	}
	if store.written[len(store.written)-1] != filepath.Join(store.dir, exportManifestName) {
		t.Errorf("files in the order %v, want the manifest last", store.written)
	}

	_, err = newExportWriter(t.Context(), newFolderStore(parent), "shop-1", exportFormatJSON)
	if !errors.Is(err, errExportExists) {
		t.Fatalf("a second export into the same folder: %v, want errExportExists", err)
	}
	if got := exportFolders(t, store.dir); len(got) != 2 {
		t.Errorf("the refused export changed the folder: %v", got)
	}
}

// A write that fails (as on a full disk) leaves no file of the export,
// temporary or not, and discard removes the folder; a file that is not the
// export's keeps the folder.
func TestExportWriter_failureLeavesNothing(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	store := newFolderStore(parent)
	w, err := newExportWriter(t.Context(), store, "shop-2", exportFormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.writeStatistic(t.Context(), "pageviews", writerRows); err != nil {
		t.Fatal(err)
	}
	full := &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}
	err = store.put(t.Context(), "page.csv", "text/csv", func(io.Writer) error { return full })
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on device") ||
		!strings.Contains(err.Error(), filepath.Join(store.dir, "page.csv")) {
		t.Fatalf("the write error %v does not name the file and the cause", err)
	}
	if got := exportFolders(t, store.dir); !slices.Equal(got, []string{"pageviews.csv"}) {
		t.Errorf("after the failed write the folder holds %v", got)
	}
	if err := w.discard(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := exportFolders(t, parent); len(got) != 0 {
		t.Errorf("discard left %v", got)
	}

	otherStore := newFolderStore(parent)
	other, err := newExportWriter(t.Context(), otherStore, "shop-3", exportFormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.writeStatistic(t.Context(), "page", writerRows); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(otherStore.dir, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := other.discard(t.Context()); err == nil {
		t.Error("discard removed a folder that holds a file it did not write")
	}
	if got := exportFolders(t, otherStore.dir); !slices.Equal(got, []string{"notes.txt"}) {
		t.Errorf("after discard the folder holds %v, want only the file it did not write", got)
	}
}

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
			addExportWriteError(d, exportSite("a.example", ""), exportTarget{"directory", "/x"}, fmt.Errorf("%w: /x/a.example-1", errExportExists), exportNothingLeft)
		}, []string{"Statistics Export Folder Exists", "never writes into or over", "nothing was changed there"}},
		{"disk full", func(d *diag.Diagnostics) {
			addExportWriteError(d, exportSite("a.example", ""), exportTarget{"directory", "/x"}, &os.PathError{Op: "write", Path: "/x/a", Err: syscall.ENOSPC}, exportNothingLeft)
		}, []string{"Unable to Write the Statistics Export", `directory = "/x"`, "no space left on device", "free space", exportNothingLeft}},
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
