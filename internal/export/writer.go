// Package export writes the files of a website's statistics export (the
// provider's analytics_website_statistics_export action) into a local
// folder or a bucket of an S3-compatible object store, and parses the
// destination that says where. It knows nothing of Terraform: the provider
// turns its errors into diagnostics.
package export

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
// here; where they go is a Store: a local folder (folder.go) or an object
// store's bucket (bucket.go). Both keep the same promises: an export
// never writes into (or over) an earlier one, a file appears whole or not
// at all, and a failed export removes what it wrote, so that no export
// without a manifest is left behind.

// Formats of an export's statistics files.
const (
	FormatJSON = "json"
	FormatCSV  = "csv"
)

// Formats are the accepted values of format.
var Formats = []string{FormatJSON, FormatCSV}

// ManifestName is the manifest's file name: the last file written,
// so an export folder without it is incomplete.
const ManifestName = "manifest.json"

// FormatVersion is the manifest's format_version; raised when the
// files change in a way readers must know.
const FormatVersion = 1

// ErrExists is returned when the export's folder exists already.
var ErrExists = errors.New("the export folder exists already")

// CleanupError is a failed export's cleanup that could not remove
// everything: what may remain, and where.
type CleanupError struct {
	Where string   // the export's folder or the URL of its prefix
	Left  []string // the files, objects or uploads that may remain
	Err   error
}

func (e *CleanupError) Error() string {
	return fmt.Sprintf("could not remove %s from %s: %v", strings.Join(e.Left, ", "), e.Where, e.Err)
}

func (e *CleanupError) Unwrap() error { return e.Err }

// Manifest describes an export (manifest.json).
type Manifest struct {
	FormatVersion int    `json:"format_version"`
	Installation  string `json:"installation"` // base URL, without /api/v1
	WebsiteID     int64  `json:"website_id"`
	Domain        string `json:"domain"`
	From          string `json:"from"`
	To            string `json:"to"`
	WholeHistory  bool   `json:"whole_history"`
	// FirstDay and LastDay are the first and last days with pageviews in
	// the range (empty without pageviews).
	FirstDay   string      `json:"first_day"`
	LastDay    string      `json:"last_day"`
	Format     string      `json:"format"`
	ExportedAt string      `json:"exported_at"` // RFC 3339, UTC
	Requests   int         `json:"requests"`
	Statistics []Statistic `json:"statistics"`
}

// Statistic is one statistics name of an export.
type Statistic struct {
	Name string `json:"name"`
	File string `json:"file"`
	Rows int    `json:"rows"`
}

// FolderName is the folder of an export of domain at: the domain,
// the UTC time and unique (Unique), e.g.
// "shop.example.com-20240501T101500Z-3f9a1c2e". Characters that do not
// belong in a host name are replaced, so the name is always one path
// element, and a key the store writes as it is.
func FolderName(domain string, at time.Time, unique string) string {
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

// Unique is the random part of an export's name (8 hexadecimal
// digits): two exports of one website in the same second, from two runs or
// two machines, never share a folder or a prefix, so that neither's check
// that its prefix is empty races with the other's uploads, and neither's
// cleanup deletes the other's files. The time before it keeps the names in
// the order of the exports.
func Unique() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// Store is where an export's files go: a local folder or a bucket of
// an object store. Its methods are called in this order: begin once, put
// for every file (the manifest last), then discard if the export failed.
type Store interface {
	// begin claims the export's own place, name (a new folder, or an empty
	// prefix of the bucket), before the first statistics request. It fails
	// with ErrExists when the place is taken.
	begin(ctx context.Context, name string) error
	// put writes the file name whole, or not at all, streaming what write
	// writes.
	put(ctx context.Context, name, contentType string, write func(io.Writer) error) error
	// discard removes every file put (or tried), and the folder.
	discard(ctx context.Context) error
	// Location names the export's place in messages: the folder's path or
	// the URL of its prefix.
	Location() string
	// Close releases what the store holds open (a bucket's client).
	Close() error
}

// Writer writes one export's files into its store.
type Writer struct {
	store  Store
	format string
}

// NewWriter claims the place name in store and returns its writer
// (ErrExists when the place is taken).
func NewWriter(ctx context.Context, store Store, name, format string) (*Writer, error) {
	if err := store.begin(ctx, name); err != nil {
		return nil, err
	}
	return &Writer{store: store, format: format}, nil
}

// StatisticFile is the file name of a statistics name.
func (w *Writer) StatisticFile(name string) string { return name + "." + w.format }

// DayStatistic reports whether name's values are days.
func DayStatistic(name string) bool {
	return name == client.StatisticPageviews || name == client.StatisticVisitors
}

// contentType is the media type of the statistics files.
func (w *Writer) contentType() string {
	if w.format == FormatCSV {
		return "text/csv; charset=utf-8"
	}
	return "application/json"
}

// WriteStatistic writes the rows of one statistics name: for pageviews and
// visitors, date and count; for the others, value and count. The rows are
// encoded one by one into the store's stream, never the whole file in
// memory.
func (w *Writer) WriteStatistic(ctx context.Context, name string, rows []client.StatisticsRow) error {
	key := "value"
	if DayStatistic(name) {
		key = "date"
	}
	return w.store.put(ctx, w.StatisticFile(name), w.contentType(), func(out io.Writer) error {
		if w.format == FormatCSV {
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

// WriteManifest writes the manifest: the export's last file.
func (w *Writer) WriteManifest(ctx context.Context, m Manifest) error {
	return w.store.put(ctx, ManifestName, "application/json", func(out io.Writer) error { return writeJSON(out, m) })
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Discard removes what the export wrote. It runs after a failure, often
// one of ctx (the action's time limit), so it has its own minute.
func (w *Writer) Discard(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	return w.store.discard(ctx)
}
