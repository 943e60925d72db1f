package provider

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The files of a statistics export (the analytics_website_statistics_export
// action): a new folder per export, one file per statistics name, and the
// manifest, written last. Every file is written to a temporary name in the
// folder, synced, then renamed into place. The folder is created with
// os.Mkdir, which fails when the name exists, so an export never writes
// into (or over) an earlier one; a failed export removes what it wrote, so
// that no folder without a manifest is left behind.

// Formats of an export's statistics files.
const (
	exportFormatJSON = "json"
	exportFormatCSV  = "csv"
)

// exportFormats are the accepted values of format.
var exportFormats = []string{exportFormatJSON, exportFormatCSV}

// exportManifestName is the manifest's file name: the last file written,
// so an export folder without it is incomplete.
const exportManifestName = "manifest.json"

// exportFormatVersion is the manifest's format_version; raised when the
// files change in a way readers must know.
const exportFormatVersion = 1

// errExportExists is returned when the export's folder exists already.
var errExportExists = errors.New("the export folder exists already")

// exportManifest describes an export (manifest.json).
type exportManifest struct {
	FormatVersion int    `json:"format_version"`
	Installation  string `json:"installation"` // base URL, without /api/v1
	WebsiteID     int64  `json:"website_id"`
	Domain        string `json:"domain"`
	From          string `json:"from"`
	To            string `json:"to"`
	WholeHistory  bool   `json:"whole_history"`
	// FirstDay and LastDay are the first and last days with pageviews in
	// the range (empty without pageviews).
	FirstDay   string              `json:"first_day"`
	LastDay    string              `json:"last_day"`
	Format     string              `json:"format"`
	ExportedAt string              `json:"exported_at"` // RFC 3339, UTC
	Requests   int                 `json:"requests"`
	Statistics []exportedStatistic `json:"statistics"`
}

// exportedStatistic is one statistics name of an export.
type exportedStatistic struct {
	Name string `json:"name"`
	File string `json:"file"`
	Rows int    `json:"rows"`
}

// exportFolderName is the folder of an export of domain at: the domain and
// the UTC time, e.g. "shop.example.com-20240501T101500Z". Characters that
// do not belong in a host name are replaced, so the name is always one
// path element.
func exportFolderName(domain string, at time.Time) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-':
			return r
		}
		return '_'
	}, domain)
	safe = strings.Trim(safe, ".")
	if safe == "" {
		safe = "website"
	}
	return safe + "-" + at.UTC().Format("20060102T150405Z")
}

// exportWriter writes one export into its own new folder.
type exportWriter struct {
	dir     string // the export's folder
	format  string
	written []string // files renamed into place so far
}

// newExportWriter creates the folder name in parent (parent too, if
// missing) and returns its writer. It fails with errExportExists when the
// folder exists.
func newExportWriter(parent, name, format string) (*exportWriter, error) {
	if err := os.MkdirAll(parent, 0o750); err != nil {
		return nil, err
	}
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o750); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%w: %s", errExportExists, dir)
		}
		return nil, err
	}
	return &exportWriter{dir: dir, format: format}, nil
}

// statisticFile is the file name of a statistics name.
func (w *exportWriter) statisticFile(name string) string { return name + "." + w.format }

// dayStatistic reports whether name's values are days.
func dayStatistic(name string) bool {
	return name == client.StatisticPageviews || name == client.StatisticVisitors
}

// writeStatistic writes the rows of one statistics name: for pageviews and
// visitors, date and count; for the others, value and count.
func (w *exportWriter) writeStatistic(name string, rows []client.StatisticsRow) error {
	key := "value"
	if dayStatistic(name) {
		key = "date"
	}
	return w.writeFile(w.statisticFile(name), func(out io.Writer) error {
		if w.format == exportFormatCSV {
			c := csv.NewWriter(out)
			if err := c.Write([]string{key, "count"}); err != nil {
				return err
			}
			for _, r := range rows {
				if err := c.Write([]string{r.Value, strconv.FormatInt(r.Count, 10)}); err != nil {
					return err
				}
			}
			c.Flush()
			return c.Error()
		}
		list := make([]map[string]any, len(rows))
		for i, r := range rows {
			list[i] = map[string]any{key: r.Value, "count": r.Count}
		}
		return writeJSON(out, list)
	})
}

// writeManifest writes the manifest: the export's last file.
func (w *exportWriter) writeManifest(m exportManifest) error {
	return w.writeFile(exportManifestName, func(out io.Writer) error { return writeJSON(out, m) })
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeFile writes name atomically: into a temporary file of the folder,
// synced and closed, then renamed into place.
func (w *exportWriter) writeFile(name string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(w.dir, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	buf := bufio.NewWriter(tmp)
	if err := write(buf); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(w.dir, name), err)
	}
	if err := buf.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Join(w.dir, name), err)
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	final := filepath.Join(w.dir, name)
	if err := os.Rename(tmp.Name(), final); err != nil {
		return err
	}
	w.written = append(w.written, final)
	return nil
}

// discard removes what the export wrote, then its folder, so that a failed
// export leaves nothing that looks like an export. Only its own files are
// removed: if anything else has appeared in the folder, the folder stays.
func (w *exportWriter) discard() error {
	var errs []error
	for _, f := range w.written {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := os.Remove(w.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
