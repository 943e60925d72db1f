package s3test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

// One weed per test binary, started by the first test that needs it and
// stopped by StopShared (the TestMain of the package).
var shared struct {
	once   sync.Once
	server *Server
	err    error
	skip   string
}

var buckets atomic.Int64

// required reports whether a missing weed fails the tests instead of
// skipping them: in CI, and in make test (which builds it).
func required() bool {
	return os.Getenv("CI") != "" || os.Getenv(EnvBuildStatus) != "" || os.Getenv("ANALYTICS_TEST_WEED_REQUIRED") != ""
}

// Shared returns the test binary's store, started on first use. Without a
// weed binary the test skips, saying how to build it, unless in CI or make
// test, where it fails.
func Shared(t testing.TB) *Server {
	t.Helper()
	shared.once.Do(func() {
		bin, skip, err := Binary()
		switch {
		case err != nil:
			shared.err = err
		case skip != "":
			shared.skip = skip
		default:
			shared.server, shared.err = Start(context.Background(), bin)
		}
	})
	switch {
	case shared.err != nil:
		t.Fatalf("the S3-compatible test store: %v", shared.err)
	case shared.skip != "" && required():
		t.Fatalf("%s (CI and make test never skip the object store's tests)", shared.skip)
	case shared.skip != "":
		t.Skip(shared.skip)
	}
	return shared.server
}

// StopShared stops the test binary's store, if one was started.
func StopShared() {
	if shared.server != nil {
		shared.server.Stop()
	}
}

// NewBucket creates a bucket of its own for t on the store, named after
// prefix.
func (s *Server) NewBucket(t testing.TB, prefix string) string {
	t.Helper()
	name := fmt.Sprintf("%s-%d-%d", prefix, os.Getpid(), buckets.Add(1))
	if err := s.CreateBucket(t.Context(), name); err != nil {
		t.Fatalf("creating the bucket %s: %v", name, err)
	}
	return name
}
