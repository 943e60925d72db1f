package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/s3/transfermanager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"gocloud.dev/blob"
)

// An export into a bucket of an object store (a destination s3://...),
// through gocloud.dev/blob. An object store has no folders and no rename,
// so the promises of the folder are kept this way: the export's prefix
// (<prefix><domain>-<UTC time>/) must hold no object when the export
// begins, checked before the first statistics request; each file is one
// upload that the store makes visible only once complete, streamed: the
// AWS SDK's transfer manager holds up to 16 MiB to choose, sends a smaller
// file in one PutObject and a larger one as a multipart upload in parts of
// bucketPartSize (a few at a time), so a file is never held whole in
// memory; a failed upload is abandoned, never completed; and a failed
// export deletes every object it wrote or tried to write. manifest.json is
// uploaded last.

// bucketPartSize is the size of a multipart upload's parts (S3's minimum).
const bucketPartSize = 5 << 20

// bucketStore writes an export under a new prefix of a bucket.
type bucketStore struct {
	dest   Destination
	bucket *blob.Bucket
	prefix string // the export's prefix, once begun
	// stored is the export's prefix as the store holds it (gocloud.dev
	// escapes some keys, a literal "__0x41__" among them), once begun.
	stored string
	tried  []string // keys uploaded or tried, as the store holds them, in order
	// unfinished are the multipart uploads whose abort failed.
	unfinished []upload
}

// openBucketStore opens the destination's bucket and lists its prefix, so
// that missing or refused credentials and a missing bucket are found
// before the analytics API is asked for anything.
func openBucketStore(ctx context.Context, dest Destination) (*bucketStore, error) {
	b, err := dest.openBucket(ctx)
	if err != nil {
		return nil, err
	}
	s := &bucketStore{dest: dest, bucket: b}
	if _, _, err := s.firstKey(ctx, dest.prefix); err != nil {
		_ = b.Close()
		return nil, err
	}
	return s, nil
}

// firstKey is a key under prefix, or "" when there is none, and prefix as
// the store holds it (as the store's library sent it in the listing).
func (s *bucketStore) firstKey(ctx context.Context, prefix string) (key, stored string, err error) {
	stored = prefix
	objs, _, err := s.bucket.ListPage(ctx, blob.FirstPageToken, 1, &blob.ListOptions{Prefix: prefix,
		BeforeList: func(as func(any) bool) error {
			var in *s3.ListObjectsV2Input
			if as(&in) && in.Prefix != nil {
				stored = *in.Prefix
			}
			return nil
		}})
	if err != nil {
		return "", stored, fmt.Errorf("listing %s: %w", s.dest.url(stored), err)
	}
	if len(objs) == 0 {
		return "", stored, nil
	}
	return objs[0].Key, stored, nil
}

// Location is the URL of the export's prefix as the store holds it.
func (s *bucketStore) Location() string {
	if s.prefix == "" {
		return s.dest.url(s.dest.prefix)
	}
	return s.dest.url(s.stored)
}

// begin claims the prefix name/ under the destination's: it must hold no
// object (ErrExists otherwise).
func (s *bucketStore) begin(ctx context.Context, name string) error {
	prefix := s.dest.prefix + name + "/"
	key, stored, err := s.firstKey(ctx, prefix)
	if err != nil {
		return err
	}
	if key != "" {
		return fmt.Errorf("%w: %s holds %s", ErrExists, s.dest.url(stored), key)
	}
	s.prefix, s.stored = prefix, stored
	return nil
}

// put uploads name, streaming what write writes; an upload whose write
// fails is abandoned (its context canceled), so nothing appears. A
// multipart upload that fails, even because ctx was canceled (Ctrl-C, the
// action's timeout), is aborted with a context of its own: the transfer
// manager's own abort uses ctx, which may be done already, and the parts
// would stay stored (and billed).
func (s *bucketStore) put(ctx context.Context, name, contentType string, write func(io.Writer) error) error {
	key := s.prefix + name
	if storeEscapes(key) {
		return fmt.Errorf("writing %s: the store's library would write the key under another name", s.dest.url(key))
	}
	upCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stored := ""
	w, err := s.bucket.NewWriter(upCtx, key, &blob.WriterOptions{ContentType: contentType, BufferSize: bucketPartSize,
		BeforeWrite: func(as func(any) bool) error {
			var in *transfermanager.UploadObjectInput
			if !as(&in) || in.Key == nil {
				return errors.New("the store's library does not say under which key it writes")
			}
			stored = *in.Key
			return nil
		}})
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.dest.url(key), err)
	}
	// The key the store holds, which discard deletes: gocloud.dev may
	// escape a part of key.
	key = stored
	s.tried = append(s.tried, key)
	buf := bufio.NewWriterSize(w, 64<<10)
	err = write(buf)
	if err == nil {
		err = buf.Flush()
	}
	if err != nil {
		cancel() // abandons the upload
		s.abortUpload(ctx, key, w.Close())
		return fmt.Errorf("writing %s: %w", s.dest.url(key), err)
	}
	if err := w.Close(); err != nil {
		s.abortUpload(ctx, key, err)
		return fmt.Errorf("writing %s: %w", s.dest.url(key), err)
	}
	return nil
}

// multipartFailure is the transfer manager's error of a failed multipart
// upload, which names the upload.
type multipartFailure interface{ UploadID() string }

// abortTimeout bounds the abort of an upload, and the cleanup's requests.
const abortTimeout = 30 * time.Second

// abortUpload aborts the multipart upload that err (an upload's failure)
// names, if any, with a fresh context bounded by abortTimeout; an upload it
// cannot abort is remembered, for discard to try again and report.
func (s *bucketStore) abortUpload(ctx context.Context, key string, err error) {
	var mf multipartFailure
	if !errors.As(err, &mf) || mf.UploadID() == "" {
		return
	}
	if aerr := s.abort(ctx, key, mf.UploadID()); aerr != nil {
		s.unfinished = append(s.unfinished, upload{key: key, id: mf.UploadID()})
	}
}

// abort sends AbortMultipartUpload with a context of its own; an upload
// the store no longer knows (aborted by the transfer manager) is fine.
func (s *bucketStore) abort(ctx context.Context, key, id string) error {
	var c *s3.Client
	if !s.bucket.As(&c) {
		return errors.New("the bucket has no S3 client")
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abortTimeout)
	defer cancel()
	_, err := c.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
		Bucket: aws.String(s.dest.bucket), Key: aws.String(key), UploadId: aws.String(id),
	})
	var nsu *types.NoSuchUpload
	if err != nil && !errors.As(err, &nsu) && storeCode(err) != "NoSuchUpload" {
		return fmt.Errorf("aborting the upload of %s: %w", s.dest.url(key), err)
	}
	return nil
}

// storeEscapes reports whether gocloud.dev/blob/s3blob would write key
// under another name (it escapes control characters and the "/" of "../",
// and reads the key as runes), which discard would then miss.
func storeEscapes(key string) bool {
	return !utf8.ValidString(key) || strings.Contains(key, "../") ||
		strings.IndexFunc(key, func(r rune) bool { return r < 32 }) >= 0
}

// upload is a multipart upload.
type upload struct{ key, id string }

// discard deletes every object the export uploaded or tried to (an upload
// that failed on the way back may have been stored all the same), and
// aborts the uploads an abort failed for. It sends S3's DeleteObject
// itself, which succeeds for a key that is not there: blob.Bucket.Delete
// would first read the object's attributes (HeadObject), which needs
// s3:GetObject, a permission the export otherwise never uses. The keys are
// those the store holds, as the store's library sent them (it escapes some,
// see put). As a delete of a missing key succeeds, discard then lists the
// export's prefix: an object that remains is reported. What could not be
// removed is in the error, a *CleanupError.
func (s *bucketStore) discard(ctx context.Context) error {
	var c *s3.Client
	if !s.bucket.As(&c) {
		return &CleanupError{Where: s.Location(), Left: s.tried, Err: errors.New("the bucket has no S3 client")}
	}
	ce := &CleanupError{Where: s.Location()}
	var errs []error
	for _, key := range s.tried {
		if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.dest.bucket), Key: aws.String(key)}); err != nil {
			ce.Left = append(ce.Left, s.dest.url(key))
			errs = append(errs, fmt.Errorf("deleting %s: %w", s.dest.url(key), err))
		}
	}
	for _, u := range s.unfinished {
		if err := s.abort(ctx, u.key, u.id); err != nil {
			ce.Left = append(ce.Left, fmt.Sprintf("the unfinished multipart upload of %s (upload id %s)", s.dest.url(u.key), u.id))
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 && s.stored != "" {
		left, err := s.remaining(ctx, c)
		if err != nil {
			ce.Left = append(ce.Left, "what the export wrote (the check that nothing remains failed)")
			errs = append(errs, err)
		}
		for _, key := range left {
			ce.Left = append(ce.Left, s.dest.url(key))
		}
		if len(left) > 0 {
			errs = append(errs, errors.New("the store still holds these objects after their deletion"))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	ce.Err = errors.Join(errs...)
	return ce
}

// remaining lists the keys the store still holds under the export's
// prefix (at most a page: the prefix holds only the export's files).
func (s *bucketStore) remaining(ctx context.Context, c *s3.Client) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, abortTimeout)
	defer cancel()
	out, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(s.dest.bucket), Prefix: aws.String(s.stored)})
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", s.dest.url(s.stored), err)
	}
	keys := make([]string, 0, len(out.Contents))
	for _, o := range out.Contents {
		keys = append(keys, aws.ToString(o.Key))
	}
	return keys, nil
}

// Close releases the bucket.
func (s *bucketStore) Close() error { return s.bucket.Close() }
