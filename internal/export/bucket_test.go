package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/s3test"
)

// The bucket store against a real S3-compatible store on loopback
// (SeaweedFS, internal/s3test), with the credentials in the standard AWS
// variables as a pipeline sets them. These tests set the environment, so
// none runs in parallel.

// setAWSEnv gives this process (the provider's code under test) the AWS
// environment of s3test.Env.
func setAWSEnv(t *testing.T, accessKey, secretKey string) {
	t.Helper()
	for _, kv := range s3test.Env(accessKey, secretKey) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// testDestination is the destination of bucket/prefix on the store.
func testDestination(s *s3test.Server, bucket, prefix string) string {
	return fmt.Sprintf("s3://%s/%s?endpoint=%s&use_path_style=true", bucket, prefix, s.Endpoint)
}

func openTestBucket(t *testing.T, dest string) (*bucketStore, error) {
	t.Helper()
	d, p := ParseDestination("destination", dest)
	if p != "" {
		t.Fatal(p)
	}
	return openBucketStore(t.Context(), d)
}

// largeRows are the rows of a file above 16 MiB in either format, which
// the SDK uploads in parts: 6,000 pages of about 3,300 characters. Few
// long rows rather than many short ones: the size is what decides the
// upload in parts, and each row costs an encoding (slow under the race
// detector).
func largeRows() []client.StatisticsRow {
	long := strings.Repeat("abcdefghij", 330)
	rows := make([]client.StatisticsRow, 0, 6_000)
	for i := range 6_000 {
		rows = append(rows, client.StatisticsRow{Value: fmt.Sprintf("/articles/%07d/%s?ref=<x>&a=\"b\"", i, long), Count: int64(i % 97)})
	}
	return rows
}

// writeTestExport writes a few rows as pageviews (a file in one PUT), rows
// as page, then a manifest, into w.
func writeTestExport(t *testing.T, w *Writer, rows []client.StatisticsRow) {
	t.Helper()
	if err := w.WriteStatistic(t.Context(), "pageviews", writerRows); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStatistic(t.Context(), "page", rows); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteManifest(t.Context(), Manifest{FormatVersion: 1, Domain: "shop.example.com"}); err != nil {
		t.Fatal(err)
	}
}

// An export to a bucket holds, under its own prefix, the bytes an export
// to a folder holds, the large file (uploaded in parts) included; a second
// export under the same prefix is refused and changes nothing; discard
// deletes every object the export wrote.
func TestExportBucket_writesWhatAFolderHolds(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	setAWSEnv(t, s3test.WriterKey, s3test.WriterSecret)
	bucket := s.NewBucket(t, "writes")
	rows := largeRows()
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			name := "shop.example.com-20240501T101500Z-" + format
			// Through a proxy that counts the store's requests: the
			// large file must go up in parts.
			proxy, err := s3test.NewCountingProxy(t.Context(), s.Endpoint)
			if err != nil {
				t.Fatal(err)
			}
			defer proxy.Close()
			store, err := openTestBucket(t, strings.Replace(testDestination(s, bucket, "team/analytics"), s.Endpoint, proxy.URL, 1))
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			w, err := NewWriter(t.Context(), store, name, format)
			if err != nil {
				t.Fatal(err)
			}
			writeTestExport(t, w, rows)
			// A LIST to open the bucket and one to begin, the small file
			// in one PUT, the large one in parts (a POST to start and
			// one to complete), the manifest in one PUT.
			if c := proxy.Counts(); c["LIST"] != 2 || c["PUT (part)"] < 4 || c["POST"] != 2 || c["PUT"] != 2 {
				t.Errorf("the store's requests: %s; want the large file in parts of 5 MiB", s3test.FormatCounts(c))
			}
			if want := "s3://" + bucket + "/team/analytics/" + name + "/"; store.Location() != want {
				t.Errorf("location %q, want %q", store.Location(), want)
			}

			folder := NewFolderStore(t.TempDir())
			fw, err := NewWriter(t.Context(), folder, name, format)
			if err != nil {
				t.Fatal(err)
			}
			writeTestExport(t, fw, rows)

			got, err := s.Objects(t.Context(), bucket, "team/analytics/"+name+"/")
			if err != nil {
				t.Fatal(err)
			}
			files := []string{"manifest.json", "page." + format, "pageviews." + format}
			var keys []string
			for k := range got {
				keys = append(keys, strings.TrimPrefix(k, "team/analytics/"+name+"/"))
			}
			slices.Sort(keys)
			if !slices.Equal(keys, files) {
				t.Fatalf("the prefix holds %v, want %v", keys, files)
			}
			for _, f := range files {
				want, err := os.ReadFile(filepath.Join(folder.dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if string(got["team/analytics/"+name+"/"+f]) != string(want) {
					t.Errorf("%s: %d bytes in the bucket differ from the %d of the folder", f, len(got["team/analytics/"+name+"/"+f]), len(want))
				}
			}
			if n := len(got["team/analytics/"+name+"/page."+format]); n <= 16<<20 {
				t.Errorf("page.%s has %d bytes: not above the threshold of uploads in parts", format, n)
			}

			again, err := openTestBucket(t, testDestination(s, bucket, "team/analytics"))
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if _, err := NewWriter(t.Context(), again, name, format); !errors.Is(err, ErrExists) ||
				!strings.Contains(err.Error(), "team/analytics/"+name+"/") {
				t.Errorf("a second export under the same prefix: %v, want it refused", err)
			}
			if after, _ := s.Objects(t.Context(), bucket, "team/analytics/"+name+"/"); len(after) != len(files) {
				t.Errorf("the refused export changed the prefix: %d objects", len(after))
			}

			if err := w.Discard(t.Context()); err != nil {
				t.Fatal(err)
			}
			if left, err := s.Objects(t.Context(), bucket, "team/analytics/"+name+"/"); err != nil || len(left) != 0 {
				t.Errorf("discard left %d objects (%v)", len(left), err)
			}
		})
	}
}

// A prefix that holds anything, even one object, is refused.
func TestExportBucket_existingPrefix(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	setAWSEnv(t, s3test.WriterKey, s3test.WriterSecret)
	bucket := s.NewBucket(t, "existing")
	if err := s.Put(t.Context(), bucket, "x/shop-1/notes.txt", "keep me"); err != nil {
		t.Fatal(err)
	}
	store, err := openTestBucket(t, testDestination(s, bucket, "x"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	_, err = NewWriter(t.Context(), store, "shop-1", FormatJSON)
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "x/shop-1/notes.txt") {
		t.Fatalf("got %v, want ErrExists naming the object found", err)
	}
	if got, _ := s.Objects(t.Context(), bucket, ""); len(got) != 1 || string(got["x/shop-1/notes.txt"]) != "keep me" {
		t.Errorf("the bucket holds %v", got)
	}
}

// Missing credentials, refused ones and a missing bucket are found when
// the bucket is opened, each with its own diagnostic naming the
// destination and the cause, and never the secret.
func TestExportBucket_refusals(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	bucket := s.NewBucket(t, "refusals")
	const wrongSecret = "wrong-secret-4d1e8a7b2c9f0e3d6a5b" //nolint:gosec // a made-up key
	tests := []struct {
		name, access, secret, bucket string
		cause                        StoreCause
		want                         []string
	}{
		{"no credentials", "", "", bucket, CauseNoCredentials,
			[]string{"No Credentials for the Statistics Export", "AWS_ACCESS_KEY_ID", "never takes them from the configuration"}},
		{"wrong secret", s3test.WriterKey, wrongSecret, bucket, CauseRefusedCredentials,
			[]string{"Statistics Export Refused by the Store", "SignatureDoesNotMatch", "s3:PutObject"}},
		{"unknown key", "ANALYTICSUNKNOWNKEY", wrongSecret, bucket, CauseRefusedCredentials,
			[]string{"Statistics Export Refused by the Store", "InvalidAccessKeyId"}},
		{"missing bucket", s3test.WriterKey, s3test.WriterSecret, bucket + "-missing", CauseNoBucket,
			[]string{"Statistics Export Bucket Not Found", "never creates buckets", bucket + "-missing"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			setAWSEnv(t, tc.access, tc.secret)
			dest := testDestination(s, tc.bucket, "exports")
			_, err := openTestBucket(t, dest)
			if err == nil {
				t.Fatal("the bucket opened")
			}
			if got := Cause(err); got != tc.cause {
				t.Errorf("cause %d, want %d: %v", got, tc.cause, err)
			}
			msg := err.Error()
			for _, secret := range []string{s3test.SecretKey, s3test.WriterSecret, wrongSecret} {
				if strings.Contains(msg, secret) {
					t.Errorf("the error holds a secret:\n%s", msg)
				}
			}
		})
	}
}

// An upload in parts that fails in the middle is abandoned: no object and
// no unfinished multipart upload remain once the export is discarded.
func TestExportBucket_partsFailMidway(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	setAWSEnv(t, s3test.WriterKey, s3test.WriterSecret)
	bucket := s.NewBucket(t, "parts")
	proxy := s3test.NewFailingProxy(t, s)
	proxy.OKLeft.Store(3) // the small file, then two parts
	store, err := openTestBucket(t, strings.Replace(testDestination(s, bucket, "x"), s.Endpoint, proxy.URL, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	w, err := NewWriter(t.Context(), store, "shop-1", FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStatistic(t.Context(), "pageviews", writerRows); err != nil {
		t.Fatal(err)
	}
	err = w.WriteStatistic(t.Context(), "page", largeRows())
	if err == nil || !strings.Contains(err.Error(), "InternalError") || !strings.Contains(err.Error(), "x/shop-1/page.json") {
		t.Fatalf("the upload in parts: %v, want it to fail with the store's error, naming the file", err)
	}
	if err := w.Discard(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Objects(t.Context(), bucket, ""); err != nil || len(got) != 0 {
		t.Errorf("the bucket holds %d objects (%v)", len(got), err)
	}
	ups, err := s.Client().ListMultipartUploads(t.Context(), &s3.ListMultipartUploadsInput{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 0 {
		t.Errorf("%d multipart uploads were left unfinished", len(ups.Uploads))
	}
	if n := proxy.Puts.Load(); n <= 3 {
		t.Errorf("%d PUTs: the store never failed", n)
	}
}
