package export

import (
	"os"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/s3test"
)

// TestMain stops the object store the bucket's tests started, if any.
func TestMain(m *testing.M) {
	code := m.Run()
	s3test.StopShared()
	os.Exit(code)
}
