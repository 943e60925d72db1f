// Package repotest tests the repository as a whole, as a user or a new
// contributor meets it: the HCL of the README and the docs, the
// examples, the guides' recipes, make install and the prerequisites check.
// Paths are relative to the repository's root, two directories up.
package repotest

import (
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// TestMain runs the tests and removes the provider built for them.
func TestMain(m *testing.M) { acctest.Main(m) }
