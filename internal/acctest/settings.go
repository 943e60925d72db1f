package acctest

import (
	"os"
	"strings"
)

// The provider falls back to ANALYTICS_* environment variables for every
// setting its block leaves out (ANALYTICS_TRACKING_URL, ANALYTICS_HEADERS,
// ANALYTICS_CA_FILE, ...). A test that inherited them from the caller's
// shell would check a provider configured otherwise than it wrote (a user
// whose installation has another public address sets
// ANALYTICS_TRACKING_URL, and the tracking code follows it), so Main clears
// them all before the tests run: a test sets the ones it is about itself
// (t.Setenv). The harness's own variables stay.

// harnessPrefixes start the variables of the harness, not the provider:
// the live mode's installation (ANALYTICS_ACC_*) and the test run's
// switches (ANALYTICS_TEST_*: the object store's build, the repeat pass).
var harnessPrefixes = []string{"ANALYTICS_ACC_", "ANALYTICS_TEST_"}

// ProviderSetting reports whether the environment variable name may be a
// setting of the provider, which Main clears: ANALYTICS_* but the harness's
// own.
func ProviderSetting(name string) bool {
	if !strings.HasPrefix(name, "ANALYTICS_") {
		return false
	}
	for _, p := range harnessPrefixes {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return true
}

// ClearProviderSettings unsets every provider setting of this process's
// environment (ProviderSetting), so that neither the provider served
// in-process nor the one a Workdir runs (which inherits this environment)
// reads the caller's. It returns the names it unset.
func ClearProviderSettings() []string {
	var cleared []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if ProviderSetting(name) {
			_ = os.Unsetenv(name)
			cleared = append(cleared, name)
		}
	}
	return cleared
}
