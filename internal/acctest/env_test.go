package acctest

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The users' keys never appear in a configuration; a wrong key does, as is.
func TestHarness_keysNotInConfiguration(t *testing.T) {
	t.Parallel()
	env := &Env{URL: "https://analytics.example.com", Key: "first-user-key-secret", Key2: "second-user-key-secret"}
	for key, want := range map[string]string{env.Key: "var." + keyVar, env.Key2: "var." + key2Var, "wrong-key": `"wrong-key"`} {
		cfg := env.ProviderBlockAt(env.URL, key)
		if strings.Contains(cfg, "-secret") {
			t.Errorf("the configuration holds a user's key:\n%s", cfg)
		}
		if !strings.Contains(cfg, "api_key  = "+want+"\n") {
			t.Errorf("api_key is not %s:\n%s", want, cfg)
		}
	}
}

// A pageview refused by the throttle waits as the server asks and goes
// again.
func TestHarness_hitWaitsOutThrottle(t *testing.T) {
	t.Parallel()
	e, err := emulator.New(emulator.Options{RateLimit: 1, RateWindow: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	env := &Env{URL: srv.URL}
	for range 2 {
		if got := env.Hit(t, "https://tf-acc-nowhere.example.com/", BrowserUA); got != "404" {
			t.Fatalf("tracking a page of no website: %q, want 404", got)
		}
	}
	if s := e.Stats(); s.Throttled != 1 || s.ByRoute["POST /api/event"] != 3 {
		t.Errorf("want the second pageview refused once, then sent again: %+v", s)
	}
}

// The provider's settings are cleared from the environment, the harness's
// own variables and everything else are kept.
func TestHarness_clearsProviderSettings(t *testing.T) {
	for name, cleared := range map[string]bool{
		"ANALYTICS_TRACKING_URL": true, "ANALYTICS_HEADERS": true, "ANALYTICS_CA_FILE": true, "ANALYTICS_SOMETHING_NEW": true,
		"ANALYTICS_ACC_BASE_URL": false, "ANALYTICS_TEST_WEED": false, "HOME_ANALYTICS_X": false,
	} {
		t.Setenv(name, "https://inherited.example")
		if got := ProviderSetting(name); got != cleared {
			t.Errorf("ProviderSetting(%q) = %v, want %v", name, got, cleared)
		}
	}
	ClearProviderSettings()
	for _, name := range []string{"ANALYTICS_TRACKING_URL", "ANALYTICS_HEADERS", "ANALYTICS_CA_FILE", "ANALYTICS_SOMETHING_NEW"} {
		if v, set := os.LookupEnv(name); set {
			t.Errorf("%s is still %q", name, v)
		}
	}
	for _, name := range []string{"ANALYTICS_ACC_BASE_URL", "ANALYTICS_TEST_WEED", "HOME_ANALYTICS_X"} {
		if _, set := os.LookupEnv(name); !set {
			t.Errorf("%s was cleared", name)
		}
	}
}
