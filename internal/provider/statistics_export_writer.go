package provider

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The files of a statistics export (the analytics_website_statistics_export
// action): a new folder (or bucket prefix) per export, one file per
// statistics name, and the manifest, written last. What the files hold is
// here; where they go is an exportStore: a local folder
// (statistics_export_folder.go) or an object store's bucket
// (statistics_export_bucket.go). Both keep the same promises: an export
// never writes into (or over) an earlier one, a file appears whole or not
// at all, and a failed export removes what it wrote, so that no export
// without a manifest is left behind.

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

// cleanupError is a failed export's cleanup that could not remove
// everything: what may remain, and where.
type cleanupError struct {
	where string   // the export's folder or the URL of its prefix
	left  []string // the files, objects or uploads that may remain
	err   error
}

func (e *cleanupError) Error() string {
	return fmt.Sprintf("could not remove %s from %s: %v", strings.Join(e.left, ", "), e.where, e.err)
}

func (e *cleanupError) Unwrap() error { return e.err }

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

// exportFolderName is the folder of an export of domain at: the domain,
// the UTC time and unique (exportUnique), e.g.
// "shop.example.com-20240501T101500Z-3f9a1c2e". Characters that do not
// belong in a host name are replaced, so the name is always one path
// element, and a key the store writes as it is.
func exportFolderName(domain string, at time.Time, unique string) string {
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
	return safe + "-" + at.UTC().Format("20060102T150405Z") + "-" + unique
}

// exportUnique is the random part of an export's name (8 hexadecimal
// digits): two exports of one website in the same second, from two runs or
// two machines, never share a folder or a prefix, so that neither's check
// that its prefix is empty races with the other's uploads, and neither's
// cleanup deletes the other's files. The time before it keeps the names in
// the order of the exports.
func exportUnique() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// exportStore is where an export's files go: a local folder or a bucket of
// an object store. Its methods are called in this order: begin once, put
// for every file (the manifest last), then discard if the export failed.
type exportStore interface {
	// begin claims the export's own place, name (a new folder, or an empty
	// prefix of the bucket), before the first statistics request. It fails
	// with errExportExists when the place is taken.
	begin(ctx context.Context, name string) error
	// put writes the file name whole, or not at all, streaming what write
	// writes.
	put(ctx context.Context, name, contentType string, write func(io.Writer) error) error
	// discard removes every file put (or tried), and the folder.
	discard(ctx context.Context) error
	// location names the export's place in messages: the folder's path or
	// the URL of its prefix.
	location() string
}

// exportWriter writes one export's files into its store.
type exportWriter struct {
	store  exportStore
	format string
}

// newExportWriter claims the place name in store and returns its writer
// (errExportExists when the place is taken).
func newExportWriter(ctx context.Context, store exportStore, name, format string) (*exportWriter, error) {
	if err := store.begin(ctx, name); err != nil {
		return nil, err
	}
	return &exportWriter{store: store, format: format}, nil
}

// statisticFile is the file name of a statistics name.
func (w *exportWriter) statisticFile(name string) string { return name + "." + w.format }

// dayStatistic reports whether name's values are days.
func dayStatistic(name string) bool {
	return name == client.StatisticPageviews || name == client.StatisticVisitors
}

// contentType is the media type of the statistics files.
func (w *exportWriter) contentType() string {
	if w.format == exportFormatCSV {
		return "text/csv; charset=utf-8"
	}
	return "application/json"
}

// writeStatistic writes the rows of one statistics name: for pageviews and
// visitors, date and count; for the others, value and count. The rows are
// encoded one by one into the store's stream, never the whole file in
// memory.
func (w *exportWriter) writeStatistic(ctx context.Context, name string, rows []client.StatisticsRow) error {
	key := "value"
	if dayStatistic(name) {
		key = "date"
	}
	return w.store.put(ctx, w.statisticFile(name), w.contentType(), func(out io.Writer) error {
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
		return writeJSONRows(out, key, rows)
	})
}

// writeJSONRows writes rows as an indented JSON array of {"count", key}
// objects, one row at a time: the bytes an indenting json.Encoder writes
// for the whole array.
func writeJSONRows(out io.Writer, key string, rows []client.StatisticsRow) error {
	if len(rows) == 0 {
		_, err := io.WriteString(out, "[]\n")
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	if _, err := io.WriteString(out, "[\n"); err != nil {
		return err
	}
	for i, r := range rows {
		buf.Reset()
		buf.WriteString("  ")
		if err := enc.Encode(map[string]any{key: r.Value, "count": r.Count}); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // the encoder's newline
		if i < len(rows)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		if _, err := out.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	_, err := io.WriteString(out, "]\n")
	return err
}

// writeManifest writes the manifest: the export's last file.
func (w *exportWriter) writeManifest(ctx context.Context, m exportManifest) error {
	return w.store.put(ctx, exportManifestName, "application/json", func(out io.Writer) error { return writeJSON(out, m) })
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// discard removes what the export wrote. It runs after a failure, often
// one of ctx (the action's time limit), so it has its own minute.
func (w *exportWriter) discard(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	return w.store.discard(ctx)
}
