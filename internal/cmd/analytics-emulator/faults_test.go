package main

import (
	"io"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func TestParseFlagsFaults(t *testing.T) {
	t.Parallel()
	c, err := parseFlags([]string{"-faults", "seed=3,latency=2ms,error=0.25,reset-after=0.5,methods=POST"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	f := c.opts.Faults
	if f == nil || f.Seed != 3 || f.Latency != 2*time.Millisecond || f.ErrorRate != 0.25 || f.ResetAfterRate != 0.5 ||
		len(f.Methods) != 1 || f.Methods[0] != "POST" {
		t.Errorf("faults: %+v", f)
	}
	if c, err := parseFlags(nil, io.Discard); err != nil || c.opts.Faults != nil {
		t.Errorf("no -faults: %+v %v", c.opts.Faults, err)
	}
	for _, bad := range []string{"error=2", "bogus=1", "latency"} {
		if _, err := parseFlags([]string{"-faults", bad}, io.Discard); err == nil {
			t.Errorf("-faults %q accepted", bad)
		}
	}
}

func TestRunWithFaults(t *testing.T) {
	t.Parallel()
	base, stop := startInProcess(t, "-addr", "127.0.0.1:0", "-faults", "error=1,error-statuses=503,methods=POST")
	if status, body := get(t, "POST", base+"/api/v1/websites", emulator.DefaultAPIKey, nil); status != 503 ||
		body != "{\n    \"message\": \"Service Unavailable\"\n}" {
		t.Errorf("POST: %d %s", status, body)
	}
	if status, _ := get(t, "GET", base+"/api/v1/websites", emulator.DefaultAPIKey, nil); status != 200 {
		t.Errorf("GET: %d", status)
	}
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
}

func TestParseFlagsMaintenanceAndSlowCommit(t *testing.T) {
	t.Parallel()
	c, err := parseFlags([]string{"-faults", "maintenance=true,slow-commit=2s,slow-commits=1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f := c.opts.Faults; f == nil || !f.Maintenance || f.SlowCommit != 2*time.Second || f.SlowCommitCount != 1 {
		t.Errorf("faults: %+v", f)
	}
}

func TestRunInMaintenance(t *testing.T) {
	t.Parallel()
	base, stop := startInProcess(t, "-addr", "127.0.0.1:0", "-faults", "maintenance=true")
	for _, path := range []string{"/api/v1/websites", "/api/v1/account", "/login"} {
		if status, body := get(t, "GET", base+path, emulator.DefaultAPIKey, nil); status != 503 ||
			body != "{\n    \"message\": \"Service Unavailable\"\n}" {
			t.Errorf("GET %s: %d %q", path, status, body)
		}
	}
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
}
