package acctest

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The users' keys never appear in a configuration: each comes from a
// variable of its own, whose name says nothing of the key and which the
// process's environment holds for the CLI; a wrong key is written as is.
func TestHarness_keysNotInConfiguration(t *testing.T) {
	t.Parallel()
	env := &Env{URL: "https://analytics.example.com", Key: "first-user-key-secret", Key2: "second-user-key-secret",
		userKeys: []string{"first-user-key-secret", "second-user-key-secret", "third-user-key-secret"}}
	other := &Env{URL: env.URL, Key: "other-test-key-secret"}
	names := map[string]string{}
	for _, c := range []struct {
		env *Env
		key string
	}{{env, env.Key}, {env, env.Key2}, {env, "third-user-key-secret"}, {other, other.Key}, {env, env.Key}} {
		cfg := c.env.ProviderBlockAt(c.env.URL, c.key)
		if strings.Contains(cfg, "-secret") {
			t.Errorf("the configuration holds a user's key:\n%s", cfg)
		}
		ref, _ := c.env.APIKeyRef(c.key)
		name, ok := strings.CutPrefix(ref, "var."+keyVar+"_")
		if !ok || !strings.Contains(cfg, "api_key  = "+ref+"\n") || !strings.Contains(cfg, `variable "`+keyVar+"_"+name+`"`) {
			t.Fatalf("api_key is not a declared variable %s_<n>:\n%s", keyVar, cfg)
		}
		if got := os.Getenv("TF_VAR_" + strings.TrimPrefix(ref, "var.")); got != c.key {
			t.Errorf("TF_VAR of %s is %q, want the key", ref, got)
		}
		if prev, seen := names[c.key]; seen && prev != ref {
			t.Errorf("one key, two variables: %s and %s", prev, ref)
		}
		for k, r := range names {
			if k != c.key && r == ref {
				t.Errorf("two keys share %s", ref)
			}
		}
		names[c.key] = ref
	}
	if cfg := env.ProviderBlockAt(env.URL, "wrong-key"); !strings.Contains(cfg, `api_key  = "wrong-key"`+"\n") {
		t.Errorf("a wrong key is not written as is:\n%s", cfg)
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
