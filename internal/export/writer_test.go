package export

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

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
		got := FolderName(domain, at, "0a1b2c3d")
		if got != want {
			t.Errorf("FolderName(%q) = %q, want %q", domain, got, want)
		}
		if filepath.Base(got) != got || strings.HasPrefix(got, ".") {
			t.Errorf("FolderName(%q) = %q is not one visible path element", domain, got)
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
		{FormatJSON, "page", writerRows,
			"[\n  {\n    \"count\": 3,\n    \"value\": \"/\"\n  },\n  {\n    \"count\": 1,\n    \"value\": \"/a,\\\"b\\\"\"\n  },\n" +
				"  {\n    \"count\": 12,\n    \"value\": \"/é\\n\"\n  }\n]\n"},
		{FormatCSV, "page", writerRows, "value,count\n/,3\n\"/a,\"\"b\"\"\",1\n\"/é\n\",12\n"},
		{FormatCSV, "pageviews", []client.StatisticsRow{{Value: "2024-01-05", Count: 7}}, "date,count\n2024-01-05,7\n"},
		{FormatJSON, "visitors", nil, "[]\n"},
		{FormatJSON, "referrer", []client.StatisticsRow{{Value: "<a>&", Count: 1}}, "[\n  {\n    \"count\": 1,\n    \"value\": \"<a>&\"\n  }\n]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.format+" "+tc.name, func(t *testing.T) {
			t.Parallel()
			store := NewFolderStore(t.TempDir())
			w, err := NewWriter(t.Context(), store, "x", tc.format)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteStatistic(t.Context(), tc.name, tc.rows); err != nil {
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
	store := NewFolderStore(parent)
	w, err := NewWriter(t.Context(), store, "shop-1", FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStatistic(t.Context(), "page", writerRows); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteManifest(t.Context(), Manifest{FormatVersion: 1, Domain: "shop"}); err != nil {
		t.Fatal(err)
	}
	if got := exportFolders(t, store.dir); !slices.Equal(got, []string{"manifest.json", "page.json"}) {
		t.Errorf("the folder holds %v, want the two files and no temporary one", got)
	}
	if store.written[len(store.written)-1] != filepath.Join(store.dir, ManifestName) {
		t.Errorf("files in the order %v, want the manifest last", store.written)
	}

	_, err = NewWriter(t.Context(), NewFolderStore(parent), "shop-1", FormatJSON)
	if !errors.Is(err, ErrExists) {
		t.Fatalf("a second export into the same folder: %v, want ErrExists", err)
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
	store := NewFolderStore(parent)
	w, err := NewWriter(t.Context(), store, "shop-2", FormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStatistic(t.Context(), "pageviews", writerRows); err != nil {
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
	if err := w.Discard(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := exportFolders(t, parent); len(got) != 0 {
		t.Errorf("discard left %v", got)
	}

	otherStore := NewFolderStore(parent)
	other, err := NewWriter(t.Context(), otherStore, "shop-3", FormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.WriteStatistic(t.Context(), "page", writerRows); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(otherStore.dir, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := other.Discard(t.Context()); err == nil {
		t.Error("discard removed a folder that holds a file it did not write")
	}
	if got := exportFolders(t, otherStore.dir); !slices.Equal(got, []string{"notes.txt"}) {
		t.Errorf("after discard the folder holds %v, want only the file it did not write", got)
	}
}

// exportFolders lists the names in dir (none if it does not exist).
func exportFolders(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
