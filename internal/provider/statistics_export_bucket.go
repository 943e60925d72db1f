package provider

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
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
	dest   exportDestination
	bucket *blob.Bucket
	prefix string   // the export's prefix, once begun
	tried  []string // keys uploaded or tried, in order
}

// openBucketStore opens the destination's bucket and lists its prefix, so
// that missing or refused credentials and a missing bucket are found
// before the analytics API is asked for anything.
func openBucketStore(ctx context.Context, dest exportDestination) (*bucketStore, error) {
	b, err := dest.openBucket(ctx)
	if err != nil {
		return nil, err
	}
	s := &bucketStore{dest: dest, bucket: b}
	if _, err := s.firstKey(ctx, dest.prefix); err != nil {
		_ = b.Close()
		return nil, err
	}
	return s, nil
}

// firstKey is a key under prefix, or "" when there is none.
func (s *bucketStore) firstKey(ctx context.Context, prefix string) (string, error) {
	objs, _, err := s.bucket.ListPage(ctx, blob.FirstPageToken, 1, &blob.ListOptions{Prefix: prefix})
	if err != nil {
		return "", fmt.Errorf("listing %s: %w", s.dest.url(prefix), err)
	}
	if len(objs) == 0 {
		return "", nil
	}
	return objs[0].Key, nil
}

func (s *bucketStore) location() string {
	if s.prefix == "" {
		return s.dest.url(s.dest.prefix)
	}
	return s.dest.url(s.prefix)
}

// begin claims the prefix name/ under the destination's: it must hold no
// object (errExportExists otherwise).
func (s *bucketStore) begin(ctx context.Context, name string) error {
	prefix := s.dest.prefix + name + "/"
	key, err := s.firstKey(ctx, prefix)
	if err != nil {
		return err
	}
	if key != "" {
		return fmt.Errorf("%w: %s holds %s", errExportExists, s.dest.url(prefix), key)
	}
	s.prefix = prefix
	return nil
}

// put uploads name, streaming what write writes; an upload whose write
// fails is abandoned (its context canceled), so nothing appears.
func (s *bucketStore) put(ctx context.Context, name, contentType string, write func(io.Writer) error) error {
	key := s.prefix + name
	s.tried = append(s.tried, key)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := s.bucket.NewWriter(ctx, key, &blob.WriterOptions{ContentType: contentType, BufferSize: bucketPartSize})
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.dest.url(key), err)
	}
	buf := bufio.NewWriterSize(w, 64<<10)
	err = write(buf)
	if err == nil {
		err = buf.Flush()
	}
	if err != nil {
		cancel() // abandons the upload
		_ = w.Close()
		return fmt.Errorf("writing %s: %w", s.dest.url(key), err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", s.dest.url(key), err)
	}
	return nil
}

// discard deletes every object the export uploaded or tried to (an upload
// that failed on the way back may have been stored all the same). It sends
// S3's DeleteObject itself, which succeeds for a key that is not there:
// blob.Bucket.Delete would first read the object's attributes
// (HeadObject), which needs s3:GetObject, a permission the export
// otherwise never uses.
func (s *bucketStore) discard(ctx context.Context) error {
	var c *s3.Client
	if !s.bucket.As(&c) {
		return errors.New("the bucket has no S3 client")
	}
	var errs []error
	for _, key := range s.tried {
		if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.dest.bucket), Key: aws.String(key)}); err != nil {
			errs = append(errs, fmt.Errorf("deleting %s: %w", s.dest.url(key), err))
		}
	}
	return errors.Join(errs...)
}

func (s *bucketStore) close() error { return s.bucket.Close() }
