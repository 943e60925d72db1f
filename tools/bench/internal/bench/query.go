package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The query pass: adoption with `terraform query` (Terraform 1.14 and
// later), the way the adoption guide shows it. N websites are created
// through the API, `terraform query -generate-config-out` lists them and
// writes an import block and a resource block for each, the apply imports
// them, and a refresh must find no change. It needs a newer Terraform than
// the other passes (QueryTerraform).

// PassQuery is the query pass.
const PassQuery = "query"

// StepQuery is `terraform query -generate-config-out=generated.tf`.
const StepQuery = "query"

// queryMinVersion is the first Terraform with list resources.
const queryMinVersion = "1.14.0"

// queryGenerated is the file the query step writes.
const queryGenerated = "generated.tf"

// querySteps are the steps of the query pass.
var querySteps = []string{StepQuery, StepImportApply, StepRefresh}

// QueryConfiguration is main.tf of the query pass: only the provider; the
// query writes the rest.
const QueryConfiguration = analyticsProvider

// QueryFile is the query file of the query pass, the adoption guide's
// list block (examples/guides/adopt-query).
const QueryFile = `list "analytics_website" "site" {
  provider = analytics
  limit    = 10000

  config {
    sort_by = "id"
    sort    = "asc"
  }
}
`

// setUpQuery finds the CLI of the query pass: Config.QueryTerraform, or the
// newest Root/.tools/bin/terraform-<version> of at least 1.14, built with
// scripts/install-tools.sh when there is none.
func (b *bench) setUpQuery(ctx context.Context) error {
	b.tfQuery = b.cfg.QueryTerraform
	if b.tfQuery == "" {
		bin := filepath.Join(b.cfg.Root, ".tools", "bin")
		b.tfQuery = newestTerraform(bin)
		if b.tfQuery == "" {
			logf(b.cfg.Log, "building the newest Terraform with scripts/install-tools.sh (a few minutes, once)")
			if err := b.installTool(ctx, "terraform-latest"); err != nil {
				return fmt.Errorf("building Terraform for the query pass: %w", err)
			}
			if b.tfQuery = newestTerraform(bin); b.tfQuery == "" {
				return fmt.Errorf("no terraform-<version> of at least %s in %s", queryMinVersion, bin)
			}
		}
	}
	v, err := terraformVersion(ctx, b.tfQuery)
	if err != nil {
		return err
	}
	if !atLeast(v, queryMinVersion) {
		return fmt.Errorf("%s is Terraform %s: the query pass needs %s or later", b.tfQuery, v, queryMinVersion)
	}
	b.tfQueryVersion = v
	return nil
}

// newestTerraform returns the newest dir/terraform-<version> of at least
// queryMinVersion, or "".
func newestTerraform(dir string) string {
	paths, _ := filepath.Glob(filepath.Join(dir, "terraform-*"))
	best, bestVersion := "", ""
	for _, p := range paths {
		v := strings.TrimPrefix(filepath.Base(p), "terraform-")
		if !atLeast(v, queryMinVersion) || (bestVersion != "" && !atLeast(v, bestVersion)) {
			continue
		}
		best, bestVersion = p, v
	}
	return best
}

// atLeast reports whether version v is a release (not a pre-release) and
// at least minimum.
func atLeast(v, minimum string) bool {
	got, err := version.NewVersion(v)
	return err == nil && got.Prerelease() == "" && got.GreaterThanOrEqual(version.Must(version.NewVersion(minimum)))
}

// queryPass creates n websites through the API and adopts them with
// terraform query -generate-config-out.
func (b *bench) queryPass(ctx context.Context, n int) (*Run, error) {
	run := &Run{Pass: PassQuery, Kind: KindWebsite, N: n}
	api, w, err := b.site(fmt.Sprintf("query-%d", n), emulator.Options{})
	if err != nil {
		return run, err
	}
	defer api.close()
	if err := api.createWebsites(ctx, n); err != nil {
		return run, fmt.Errorf("query pass: %w", err)
	}
	w.tf = b.tfQuery
	w.config = func(int, bool) string { return QueryConfiguration }
	if err := w.configure(n, false); err != nil {
		return run, err
	}
	if err := os.WriteFile(filepath.Join(w.dir, "websites.tfquery.hcl"), []byte(QueryFile), 0o600); err != nil {
		return run, err
	}
	b.runSteps(ctx, run, w, querySteps, func(step string, s *Step) {
		w.check(s, n, 0)
		if step == StepQuery {
			checkQuery(s, w.dir, n)
		}
		checkAdoption(s, n)
	})
	return run, ctx.Err()
}

// checkQuery records in s the query step's outcome, from the configuration
// it generated: an import block by identity for each of the n websites.
func checkQuery(s *Step, dir string, n int) {
	if s.Error != "" {
		return
	}
	gen, err := os.ReadFile(filepath.Join(dir, queryGenerated))
	if err != nil {
		s.Error = fmt.Sprintf("no generated configuration: %v", err)
		return
	}
	imports := strings.Count(string(gen), "\nimport {")
	identities := strings.Count(string(gen), "identity = {")
	s.Summary = fmt.Sprintf("%d import blocks (%d by identity) and %d resource blocks generated", imports, identities,
		strings.Count(string(gen), "resource \"analytics_website\""))
	if imports != n || identities != n {
		s.Error = fmt.Sprintf("%s, want %d by identity", s.Summary, n)
	}
}

// queryMaxRequests is the goal of the query step: one request per 100
// websites, twice when there are several pages (the provider reads such a
// list twice, so that it is the list at one moment).
func queryMaxRequests(n int) int {
	if pages := (n + 99) / 100; pages > 1 {
		return 2 * pages
	}
	return 1
}

// queryTargets are the targets of the query pass.
func queryTargets(res *Results) []Target {
	var out []Target
	for _, r := range res.Runs {
		if r == nil || r.Pass != PassQuery {
			continue
		}
		s := r.step(StepQuery)
		out = append(out, Target{Name: fmt.Sprintf("terraform query of %d websites (-generate-config-out)", r.N),
			Goal: fmt.Sprintf("≤ %d API requests (one per 100 websites, read twice)", queryMaxRequests(r.N))}.measured(s != nil && s.OK(), func() (string, bool) {
			return fmt.Sprintf("%d requests (%s), %.2f s", s.Requests.Total, requestMix(s.Requests), s.Wall), s.Requests.Total <= queryMaxRequests(r.N)
		}))
	}
	return out
}
