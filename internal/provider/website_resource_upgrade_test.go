package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// TestAccWebsite_upgradeFrom010 starts from the state that provider 0.1.0
// wrote for testdata/upgrade-0.1.0/websites.tf (schema version 0: an unset
// exclude_params stored as an empty set), against a server on which
// plain.example has since got a value in every column in the web interface
// (acctest.FullWebsite), but those 0.1.0's configuration manages with a
// default. The upgrade must plan no change and write nothing; the first
// unrelated change must keep every column; another user's key must not
// empty the state, although 0.1.0 remembered no owner.
//
// So an attribute added since, which 0.1.0's users cannot have set, must
// keep what the web interface set when it is unset: with a value in
// FullWebsite (every column's sample, wire.Columns), a new Optional attribute
// without Computed, or one with a Default, fails here naming it.
func TestAccWebsite_upgradeFrom010(t *testing.T) {
	acctest.CLIDependent(t, "each CLI reads a state written by release 0.1.0 (OpenTofu under its own registry host)")
	acctest.NeedsEmulator(t, "replays a 0.1.0 state whose website ids the emulator seeds, with exclude_params set as the web interface stores them, and counts the emulator's requests")
	w := acctest.NewWorkdir(t)
	env := acctest.New(t, acctest.Emulator(acctest.TwoUsers(emulator.Options{})))
	// Made when 0.1.0's state says: another created_at under the id is
	// another website (website_identity.go).
	made := time.Date(2026, 11, 23, 6, 7, 58, 0, time.UTC)
	env.Seed(acctest.KeyOwner, emulator.Website{ID: 1, Domain: "secret.example", Settings: wire.Settings{Privacy: ptr(2), Email: ptr(0), ExcludeBots: ptr(1), Password: "s3cret-pass"},
		CreatedAt: made})
	env.Seed(acctest.KeyOwner, emulator.Website{ID: 2, Domain: "managed.example", Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1), ExcludeParams: "utm_source\nfbclid", ExcludeIPs: "10.0.0.0/8"},
		CreatedAt: made})
	plain := acctest.FullWebsite("plain.example")
	plain.ID = 3
	// 0.1.0's configuration leaves these unset, and 0.1.0 managed them with
	// a default: the default is what the server holds.
	plain.Privacy, plain.Email, plain.ExcludeBots, plain.ExcludeIPs = ptr(0), ptr(0), ptr(1), ""
	plain.CreatedAt = made
	plain = env.Seed(acctest.KeyOwner, plain)

	data, err := os.ReadFile(filepath.Join("testdata", "upgrade-0.1.0", "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	state := strings.ReplaceAll(string(data), "registry.terraform.io", w.RegistryHost())
	w.Write("terraform.tfstate", state)
	websites, err := os.ReadFile(filepath.Join("testdata", "upgrade-0.1.0", "websites.tf"))
	if err != nil {
		t.Fatal(err)
	}
	config := "terraform {\n  required_providers {\n    analytics = { source = \"analytics-tf/analytics\" }\n  }\n}\n" + string(websites)

	// Another user's key: every website reads as "not found", and 0.1.0
	// remembered no owner; the state must be kept.
	w.Write("main.tf", env.ProviderBlockAt(env.URL, acctest.KeyOther)+config)
	out := w.MustRun(1, "apply", "-refresh-only", "-auto-approve")
	if !strings.Contains(out, "Every Managed Website Vanished") {
		t.Errorf("refresh with another user's key: want the vanished-websites error, got:\n%s", out)
	}
	if got := w.Read("terraform.tfstate"); got != state {
		t.Errorf("refresh with another user's key changed the state:\n%s", got)
	}

	// The right key: no change planned, nothing written.
	w.Write("main.tf", env.ProviderBlockAt(env.URL, acctest.KeyOwner)+config)
	env.ResetStats()
	if out, code := w.Run("plan", "-detailed-exitcode"); code != 0 {
		t.Fatalf("upgrading from 0.1.0 plans to change %v (exit code %d) of websites whose columns were set in the web "+
			"interface (plain.example holds acctest.FullWebsite): every user of 0.1.0 would see the values they set there "+
			"cleared or reset. An attribute added since 0.1.0 must keep the server's value when it is unset: Optional and "+
			"Computed, no Default, with a plan modifier that keeps the state's value unless it is null (UseNonNullStateForUnknown; internal/provider/website_attributes.go; "+
			"CONTRIBUTING.md, \"Adding an attribute\"). Clearing it instead is a breaking change: it needs a BREAKING CHANGES "+
			"changelog fragment (make changelog-new) and this test's expectation changed with it:\n%s", acctest.PlanChanges(out), code, out)
	}
	if n := env.Writes(); n != 0 {
		t.Errorf("planning after the upgrade sent %d write requests: %v", n, env.Stats().ByRoute)
	}

	// An unrelated change keeps every column set in the web interface, and
	// the exclusions Terraform set, even without a refresh (-refresh=false):
	// 0.1.0's state holds null for every attribute added since, whatever
	// the server holds, which an attribute that plans a null state as its
	// value (UseStateForUnknown) would send as empty.
	w.Write("main.tf", env.ProviderBlockAt(env.URL, acctest.KeyOwner)+strings.Replace(config,
		`domain = "plain.example"`, "domain        = \"plain.example\"\n  email_reports = true", 1))
	w.MustRun(0, "apply", "-auto-approve", "-refresh=false")
	if got, _ := env.Website(2); got.ExcludeParams != "utm_source\nfbclid" {
		t.Errorf("managed.example: exclude_params is %q on the server after the change, want %q", got.ExcludeParams, "utm_source\nfbclid")
	}
	got, _ := env.Website(3)
	if got.Email == nil || *got.Email != 1 {
		t.Errorf("the change was not applied: email = %v", acctest.Shown(reflect.ValueOf(got.Email)))
	}
	if lost := acctest.LostColumns(plain, got, "Email", "UpdatedAt"); len(lost) != 0 {
		t.Errorf("plain.example lost what the web interface set: %v. An attribute added since 0.1.0 must keep the "+
			"server's value while unset, also while the state holds null: a plan modifier that keeps only a non-null "+
			"state (UseNonNullStateForUnknown), and its client.WebsiteInput field left out while the plan's value is "+
			"unknown (internal/provider/website_attributes.go; CONTRIBUTING.md, \"Adding an attribute\")", lost)
	}
	if got, _ := env.Website(1); got.Password != "s3cret-pass" {
		t.Error("the password of secret.example changed")
	}
	w.MustRun(0, "plan", "-detailed-exitcode")
}

// TestAccWebsite_upgradeFromSchemaV1: a state written before skip_destroy
// and tracking_code existed (schema version 1, no such attributes) upgrades
// to false and the tracking code and plans no change, with or without a
// refresh; so does one of version 2 (no tracking_code).
func TestAccWebsite_upgradeFromSchemaV1(t *testing.T) {
	// One state holds a website of each version (resources v1 and v2), so
	// that one run of each command upgrades both.
	s := newStatsEnv(t, emulator.Options{})
	versions := []int{1, 2}
	var hcl strings.Builder
	for _, version := range versions {
		hcl.WriteString(websiteBlock(fmt.Sprintf("v%d", version), fmt.Sprintf("tf-acc-stats-v%d.example.com", version), ""))
	}
	s.Apply(hcl.String())

	var st map[string]any
	if err := json.Unmarshal([]byte(s.W.Read("terraform.tfstate")), &st); err != nil {
		t.Fatal(err)
	}
	found := map[int]bool{}
	for _, r := range st["resources"].([]any) { //nolint:forcetypeassert // a state file of this test
		var version int
		if _, err := fmt.Sscanf(r.(map[string]any)["name"].(string), "v%d", &version); err != nil { //nolint:forcetypeassert // as above
			t.Fatal(err)
		}
		for _, inst := range r.(map[string]any)["instances"].([]any) { //nolint:forcetypeassert // as above
			m := inst.(map[string]any) //nolint:forcetypeassert // as above
			m["schema_version"] = version
			attrs := m["attributes"].(map[string]any) //nolint:forcetypeassert // as above
			if _, ok := attrs["tracking_code"]; !ok {
				t.Fatalf("the state lacks tracking_code before the test removes it: %v", attrs)
			}
			delete(attrs, "tracking_code")
			if version < 2 {
				delete(attrs, "skip_destroy")
			}
			found[version] = true
		}
	}
	if len(found) != len(versions) {
		t.Fatalf("resource instances of versions %v in the state, want %v", found, versions)
	}
	raw, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	s.W.Write("terraform.tfstate", string(raw))
	s.ResetStats()
	s.W.MustRun(0, "plan", "-detailed-exitcode", "-refresh=false")
	s.W.MustRun(0, "plan", "-detailed-exitcode")
	s.W.MustRun(0, "apply", "-auto-approve")
	if n := s.Writes(); n != 0 {
		t.Errorf("the upgrade sent %d write requests", n)
	}
	if st := s.W.Read("terraform.tfstate"); strings.Count(st, `"skip_destroy": false`) != len(versions) ||
		strings.Count(st, `"tracking_code": "\u003cscript data-host=\"`+s.URL+`\"`) != len(versions) {
		t.Errorf("the upgraded state lacks skip_destroy = false or the tracking code of a website:\n%s", st)
	}
	s.W.MustRun(0, "destroy", "-auto-approve")
}
