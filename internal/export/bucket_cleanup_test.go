package export

import (
	"context"
	"errors"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/s3test"
)

// What a failed or cancelled export leaves in the store: nothing, or, when
// the store refuses to delete, an error that says what and where.

// A multipart upload cancelled by the caller (Ctrl-C, the action's
// timeout) is aborted all the same: no unfinished upload stays stored.
func TestExportBucket_cancelAbortsUpload(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	setAWSEnv(t, s3test.WriterKey, s3test.WriterSecret)
	bucket := s.NewBucket(t, "cancel")
	proxy, err := s3test.NewCountingProxy(t.Context(), s.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	store, err := openTestBucket(t, strings.Replace(testDestination(s, bucket, "x"), s.Endpoint, proxy.URL, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	w, err := NewWriter(ctx, store, "shop-1", FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	chunk := []byte(strings.Repeat("x", 1<<20))
	err = w.store.put(ctx, "page.json", "application/json", func(out io.Writer) error {
		for range 24 { // past the 16 MiB at which the upload goes in parts
			if _, err := out.Write(chunk); err != nil {
				return err
			}
		}
		cancel() // Ctrl-C in the middle of the file
		for {
			if _, err := out.Write(chunk); err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
	})
	if err == nil {
		t.Fatal("the cancelled upload succeeded")
	}
	if c := proxy.Counts(); c["POST"] < 1 {
		t.Fatalf("no multipart upload was started (%s): the test proves nothing", s3test.FormatCounts(c))
	}
	ups, err := s.Client().ListMultipartUploads(t.Context(), &s3.ListMultipartUploadsInput{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 0 {
		t.Errorf("%d multipart uploads were left unfinished after the cancel", len(ups.Uploads))
	}
	if err := w.Discard(ctx); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Objects(t.Context(), bucket, ""); err != nil || len(got) != 0 {
		t.Errorf("the bucket holds %d objects (%v)", len(got), err)
	}
}

// A failed export leaves nothing, whatever characters its prefix holds:
// a prefix whose keys the store's library would write under other names
// than the cleanup deletes is refused when the destination is parsed.
func TestExportBucket_cleanupDeletesWhatItWrote(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	setAWSEnv(t, s3test.WriterKey, s3test.WriterSecret)
	bucket := s.NewBucket(t, "cleanup")
	proxy := s3test.NewFailingProxy(t, s)
	for _, prefix := range []string{
		"a../b", "a..", "x/y..", "a%0Ab", "tab%09", "%7F", "%FF", "a%C3",
		"a b/ü~!$&'()*+,;=:%40", "%25/%3F/%23", "a...b/.x/..y",
		"__0x41__", "a__0x2f__b/c", "x/__0x5f__", "__0x__/y",
	} {
		t.Run(prefix, func(t *testing.T) {
			dest := "s3://" + bucket + "/" + prefix + "?endpoint=" + proxy.URL + "&use_path_style=true"
			d, problem := ParseDestination("destination", dest)
			if problem != "" {
				t.Logf("refused: %s", problem)
				return
			}
			store, err := openBucketStore(t.Context(), d)
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			w, err := NewWriter(t.Context(), store, "shop-1", FormatJSON)
			if err != nil {
				t.Fatal(err)
			}
			proxy.OKLeft.Store(1)
			if err := w.WriteStatistic(t.Context(), "pageviews", writerRows); err != nil {
				t.Fatal(err)
			}
			if err := w.WriteStatistic(t.Context(), "page", writerRows); err == nil {
				t.Fatal("the store took the second file")
			}
			if err := w.Discard(t.Context()); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Objects(t.Context(), bucket, ""); err != nil || len(got) != 0 {
				keys := make([]string, 0, len(got))
				for k := range got {
					keys = append(keys, k)
				}
				t.Errorf("the failed export left %q (%v)", keys, err)
			}
		})
	}
}

// An export under a prefix whose keys the store's library writes under
// another name (gocloud.dev escapes a literal "__0x41__" as
// "__0x5f___0x41__") is reported where its files really are, and a failed
// one leaves nothing: the cleanup deletes the keys the store holds, and
// checks that the export's prefix is empty.
func TestExportBucket_escapedPrefix(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	setAWSEnv(t, s3test.WriterKey, s3test.WriterSecret)
	bucket := s.NewBucket(t, "escaped")
	proxy := s3test.NewFailingProxy(t, s)
	store, err := openTestBucket(t, strings.Replace(testDestination(s, bucket, "__0x41__"), s.Endpoint, proxy.URL, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	w, err := NewWriter(t.Context(), store, "shop-1", FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	proxy.OKLeft.Store(1)
	if err := w.WriteStatistic(t.Context(), "pageviews", writerRows); err != nil {
		t.Fatal(err)
	}
	got, err := s.Objects(t.Context(), bucket, "")
	if err != nil || len(got) != 1 {
		t.Fatalf("the bucket holds %d objects (%v), want the first file", len(got), err)
	}
	where := strings.TrimPrefix(store.Location(), "s3://"+bucket+"/")
	for key := range got {
		if !strings.HasPrefix(key, where) || where != "__0x5f___0x41__/shop-1/" {
			t.Errorf("the export is reported at %s, but the store holds %s", store.Location(), key)
		}
	}
	if err := w.WriteStatistic(t.Context(), "page", writerRows); err == nil {
		t.Fatal("the store took the second file")
	}
	if err := w.Discard(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Objects(t.Context(), bucket, ""); err != nil || len(got) != 0 {
		keys := slices.Collect(maps.Keys(got))
		t.Errorf("the failed export left %q (%v), and its cleanup said nothing remained", keys, err)
	}
}

// A cleanup whose deletes the store answers with success but which leave
// the objects (as a delete of a key the store does not hold succeeds) is
// not taken for done: the cleanup lists the export's prefix and names what
// remains, and where.
func TestExportBucket_cleanupChecks(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	setAWSEnv(t, s3test.WriterKey, s3test.WriterSecret)
	bucket := s.NewBucket(t, "unchecked")
	proxy := s3test.NewFailingProxy(t, s)
	proxy.OKLeft.Store(1)
	proxy.SwallowDeletes.Store(true)
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
	if err := w.WriteStatistic(t.Context(), "page", writerRows); err == nil {
		t.Fatal("the store took the second file")
	}
	err = w.Discard(t.Context())
	var ce *CleanupError
	if !errors.As(err, &ce) {
		t.Fatalf("the cleanup left the first file and said: %v, want a *CleanupError", err)
	}
	if want := []string{"s3://" + bucket + "/x/shop-1/pageviews.json"}; !slices.Equal(ce.Left, want) ||
		ce.Where != "s3://"+bucket+"/x/shop-1/" {
		t.Errorf("the cleanup's error: left %q in %q (%v), want %q", ce.Left, ce.Where, err, want)
	}
}

// A cleanup that the store refuses (no s3:DeleteObject, object lock, an
// outage) is reported as it is: the error names every object that stays,
// and where, instead of saying that nothing was left.
func TestExportBucket_cleanupRefused(t *testing.T) {
	acctest.OncePerTestRun(t, "an object store, without Terraform")
	s := s3test.Shared(t)
	setAWSEnv(t, s3test.WriterKey, s3test.WriterSecret)
	bucket := s.NewBucket(t, "undeletable")
	proxy := s3test.NewFailingProxy(t, s)
	proxy.OKLeft.Store(1)
	proxy.RefuseDeletes.Store(true)
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
	failure := w.WriteStatistic(t.Context(), "page", writerRows)
	if failure == nil {
		t.Fatal("the store took the second file")
	}
	err = w.Discard(t.Context())
	var ce *CleanupError
	if !errors.As(err, &ce) {
		t.Fatalf("the refused cleanup: %v, want a *CleanupError", err)
	}
	if want := []string{"s3://" + bucket + "/x/shop-1/pageviews.json", "s3://" + bucket + "/x/shop-1/page.json"}; !slices.Equal(ce.Left, want) ||
		ce.Where != "s3://"+bucket+"/x/shop-1/" || !strings.Contains(err.Error(), "AccessDenied") {
		t.Errorf("the cleanup's error: left %q in %q (%v), want %q", ce.Left, ce.Where, err, want)
	}
	if got, _ := s.Objects(t.Context(), bucket, ""); len(got) == 0 {
		t.Error("the store deleted the objects: the test proves nothing")
	}
}

// A request signed for another region than the bucket's is reported as a
// region problem, not as refused credentials.
func TestExportStoreCause_wrongRegion(t *testing.T) {
	t.Parallel()
	for _, code := range []string{"AuthorizationHeaderMalformed", "PermanentRedirect", "IllegalLocationConstraintException"} {
		err := &smithy.GenericAPIError{Code: code, Message: "the region 'us-east-1' is wrong; expecting 'eu-west-1'"}
		if got := Cause(err); got != CauseWrongRegion {
			t.Errorf("%s: cause %d, want CauseWrongRegion", code, got)
		}
	}
	if got := Cause(&smithy.GenericAPIError{Code: "SignatureDoesNotMatch"}); got != CauseRefusedCredentials {
		t.Errorf("SignatureDoesNotMatch: cause %d, want CauseRefusedCredentials", got)
	}
}

// Two exports of one website in the same second get names of their own,
// so that neither's "prefix is empty" check races with the other's uploads.
func TestExportFolderName_unique(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 5, 1, 10, 15, 0, 0, time.UTC)
	pattern := regexp.MustCompile(`^shop\.example\.com-20240501T101500Z-[0-9a-f]{8}$`)
	seen := map[string]bool{}
	for range 1000 {
		name := FolderName("shop.example.com", at, Unique())
		if !pattern.MatchString(name) || seen[name] || storeEscapes(name) {
			t.Fatalf("name %q: not of the form, or seen before", name)
		}
		seen[name] = true
	}
}
