package bench

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The API a pass measures: the seeded websites are there, the counters
// split the searches from the lists, and a reset starts them again.
func TestAPIServer_requests(t *testing.T) {
	t.Parallel()
	api, err := startAPI(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer api.close()
	api.seed(3)
	if n := len(api.emu.Websites()); n != 3 {
		t.Fatalf("seeded %d websites, want 3", n)
	}
	get := func(path string) {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, api.url+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+emulator.DefaultAPIKey)
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	get("/api/v1/websites")
	get("/api/v1/websites?search=seeded-1&search_by=domain")
	get("/api/v1/websites/1")
	get("/api/v1/account")
	r := api.requests()
	if r.Total != 4 || r.List != 1 || r.Search != 1 || r.Show != 1 || r.OtherGet != 1 {
		t.Errorf("requests = %+v, want 4 in all: a list, a search, a show, another GET", r)
	}
	api.resetStats()
	if r := api.requests(); r.Total != 0 || r.Search != 0 {
		t.Errorf("after a reset: %+v", r)
	}
}

// A configuration's zero values take make bench's, and FindRoot finds the
// provider's module above the bench's own.
func TestConfigDefaultsAndRoot(t *testing.T) {
	t.Parallel()
	cfg := withDefaults(Config{Parallelism: 3})
	def := DefaultConfig()
	if cfg.Parallelism != 3 || len(cfg.Sizes) != len(def.Sizes) || cfg.RateLimit != def.RateLimit ||
		cfg.RateWindow != def.RateWindow || cfg.Rounds != 1 || cfg.Log == nil {
		t.Errorf("withDefaults = %+v", cfg)
	}
	root, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "tools", "bench", "go.mod")); err != nil {
		t.Errorf("FindRoot = %s, not the repository's root: %v", root, err)
	}
	if _, err := FindRoot(t.TempDir()); err == nil {
		t.Error("FindRoot found a root above a temporary directory")
	}
	b := &bench{cfg: Config{RateLimit: 60, RateWindow: time.Minute}}
	s := &Step{Requests: Requests{Total: 130, Throttled: 10, ByStatus: map[string]int{"200": 100, "201": 20, "429": 10}}}
	if got := b.lowerBound(s); got != 120 {
		t.Errorf("lowerBound = %v, want 120 s for 120 successful requests at 60 a minute", got)
	}
	if failed(&Run{Steps: []*Step{{}}}) || !failed(&Run{Steps: []*Step{{}, {Error: "x"}}}) {
		t.Error("failed does not tell a failed step")
	}
	if k := b.kinds(); strings.Join(k, ",") != KindData+","+KindWebsite {
		t.Errorf("kinds without hashicorp/time = %v", k)
	}
}
