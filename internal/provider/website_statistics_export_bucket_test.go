package provider

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
	"github.com/analytics-tf/terraform-provider-analytics/internal/export"
	"github.com/analytics-tf/terraform-provider-analytics/internal/s3test"
)

// The export action with an s3:// destination, through the CLI, against a
// real S3-compatible store on loopback (SeaweedFS, internal/s3test). The
// provider gets the store's keys as a pipeline gives them: in the AWS
// environment variables of the process that runs Terraform; they may only
// list, write and delete (no read), as the docs say is enough.

// bucketEnv is a statsEnv on a CLI with actions, with a store and its
// credentials in the CLI's environment.
type bucketEnv struct {
	*statsEnv
	store  *s3test.Server
	bucket string
}

// newBucketEnv skips unless the CLI has actions (minVersion) and the tests
// run in-process; it starts (or reuses) the store and makes a bucket.
func newBucketEnv(t *testing.T, s *statsEnv) *bucketEnv {
	t.Helper()
	acctest.NeedsEmulator(t, "compares the exports with the emulator's statistics")
	store := s3test.Shared(t)
	s.W.Env = s3test.Env(s3test.WriterKey, s3test.WriterSecret)
	return &bucketEnv{statsEnv: s, store: store, bucket: store.NewBucket(t, "exports")}
}

// destination is the s3:// destination of prefix in the env's bucket,
// through endpoint (the store's own unless given).
func (b *bucketEnv) destination(prefix, endpoint string) string {
	if endpoint == "" {
		endpoint = b.store.Endpoint
	}
	return fmt.Sprintf("s3://%s/%s?endpoint=%s&region=%s&use_path_style=true", b.bucket, prefix, endpoint, s3test.Region)
}

// bucketExports reads every export under prefix: export folder name to its
// files (name to content).
func (b *bucketEnv) bucketExports(t *testing.T, prefix string) map[string]map[string][]byte {
	t.Helper()
	objs, err := b.store.Objects(t.Context(), b.bucket, prefix+"/")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string][]byte{}
	for key, body := range objs {
		folder, file, ok := strings.Cut(strings.TrimPrefix(key, prefix+"/"), "/")
		if !ok {
			t.Fatalf("object %s is not in an export's folder", key)
		}
		if out[folder] == nil {
			out[folder] = map[string][]byte{}
		}
		out[folder][file] = body
	}
	return out
}

// oneBucketExport returns the files and manifest of the only export of
// domain under prefix.
func (b *bucketEnv) oneBucketExport(t *testing.T, prefix, domain string) (map[string][]byte, export.Manifest) {
	t.Helper()
	exports := b.bucketExports(t, prefix)
	if len(exports) != 1 {
		t.Fatalf("want one export under %s/, got %d", prefix, len(exports))
	}
	for folder, files := range exports {
		if !strings.HasPrefix(folder, domain+"-") {
			t.Fatalf("export %s/%s/, want %s-<time>/", prefix, folder, domain)
		}
		var m export.Manifest
		if err := json.Unmarshal(files[export.ManifestName], &m); err != nil {
			t.Fatalf("manifest: %v\n%s", err, files[export.ManifestName])
		}
		return files, m
	}
	return nil, export.Manifest{}
}

// checkBucketExport fails unless files hold exactly want, in format, and
// nothing else but the manifest.
func checkBucketExport(t *testing.T, files map[string][]byte, format string, want map[string][]string) {
	t.Helper()
	if len(files) != len(client.StatisticNames)+1 {
		t.Errorf("the export holds %d files, want %d", len(files), len(client.StatisticNames)+1)
	}
	for _, name := range client.StatisticNames {
		raw, ok := files[name+"."+format]
		if !ok {
			t.Errorf("the export has no %s.%s", name, format)
			continue
		}
		if got := parseExportedRows(t, name, format, raw); fmt.Sprint(got) != fmt.Sprint(want[name]) {
			t.Errorf("%s.%s: %v, want %v", name, format, got, want[name])
		}
	}
}

// exportedWebsiteTo is exportedWebsite with a destination.
func exportedWebsiteTo(domain, destination string) string {
	return fmt.Sprintf(`resource "analytics_website" "main" {
  domain = %q
  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.analytics_website_statistics_export.keep]
    }
  }
}
`, domain) + exportAction("keep", fmt.Sprintf("    website_id  = caller.id\n    destination = %q\n", destination))
}

// noSecret fails if out holds one of the store's secret keys.
func noSecret(t *testing.T, out string, secrets ...string) {
	t.Helper()
	for _, s := range append(secrets, s3test.SecretKey, s3test.WriterSecret) {
		if strings.Contains(out, s) {
			t.Errorf("the output holds a secret key")
		}
	}
}

// TestAccStatisticsExportToBucket_byHand: terraform apply -invoke writes
// every statistics name, in json and csv, under a new prefix of the
// bucket, equal to what the statistics API holds; TF_LOG=trace shows no
// secret.
func TestAccStatisticsExportToBucket_byHand(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	b := newBucketEnv(t, s)
	const domain = "tf-acc-export-s3.example.com"
	website := websiteBlock("main", domain, "")
	s.Apply(website)
	s.pageviews(t, []string{domain}, "2024-01-05", "2024-01-07")
	if got, err := tracking.SendHit(t.Context(), nil, s.URL, tracking.Hit{Page: "https://" + domain + "/pricing?utm_campaign=spring",
		Referrer: "https://news.example.org/a", UserAgent: acctest.BrowserUA}); err != nil || got != "200" {
		t.Fatalf("tracking: %q, %v", got, err)
	}
	site, _ := s.WebsiteByDomain(domain)
	want := wantExport(s, site.ID)
	s.W.Env = append(s.W.Env, "TF_LOG=trace")
	for _, format := range export.Formats {
		t.Run(format, func(t *testing.T) {
			s.W.Write("main.tf", s.Config(website, exportAction("keep", fmt.Sprintf(
				"    website_id  = analytics_website.main.id\n    destination = %q\n    format      = %q\n",
				b.destination("pipeline/"+format, ""), format))))
			s.ResetStats()
			log := s.W.MustRun(0, invokeExport...)
			if want := "into s3://" + b.bucket + "/pipeline/" + format + "/" + domain + "-"; !strings.Contains(log, want) {
				t.Errorf("the output does not say where the export went (%q):\n%.3000s", want, log)
			}
			noSecret(t, log)
			files, m := b.oneBucketExport(t, "pipeline/"+format, domain)
			checkBucketExport(t, files, format, want)
			if m.WebsiteID != site.ID || m.Domain != domain || m.Format != format || !m.WholeHistory ||
				m.FirstDay != "2024-01-05" || m.LastDay != "2024-01-07" || len(m.Statistics) != len(client.StatisticNames) {
				t.Errorf("manifest %+v", m)
			}
			if n := s.statsRequests(); n != len(client.StatisticNames) || m.Requests != n+1 {
				t.Errorf("%d statistics requests (manifest: %d), want one per name", n, m.Requests)
			}
		})
	}
	s.W.Write("main.tf", s.Config(website))
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// TestAccStatisticsExportToBucket_beforeDestroy: the action_trigger exports
// the website's statistics into the bucket before a replacement through
// domain, one forced with -replace, and terraform destroy.
func TestAccStatisticsExportToBucket_beforeDestroy(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	needsCLI(t, s.W, version1_16_0, "before_destroy action triggers")
	b := newBucketEnv(t, s)
	const first, second = "tf-acc-export-s3bd1.example.com", "tf-acc-export-s3bd2.example.com"
	steps := []struct {
		name, domain, next string
		args               []string
	}{
		{"replace through domain", first, second, []string{"apply", "-auto-approve"}},
		{"-replace", second, second, []string{"apply", "-auto-approve", "-replace=analytics_website.main"}},
		{"destroy", second, "", []string{"destroy", "-auto-approve"}},
	}
	s.Apply(exportedWebsiteTo(first, b.destination("none", "")))
	day := "2024-03-01"
	for i, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			s.pageviews(t, []string{step.domain}, day)
			day = fmt.Sprintf("2024-03-%02d", i+2)
			old, _ := s.WebsiteByDomain(step.domain)
			want := wantExport(s, old.ID)
			prefix := fmt.Sprintf("step%d", i)
			next := step.next
			if next == "" {
				next = step.domain
			}
			s.W.Write("main.tf", s.Config(exportedWebsiteTo(next, b.destination(prefix, ""))))
			log := s.W.MustRun(0, step.args...)
			if !strings.Contains(log, "triggered by analytics_website.main") {
				t.Errorf("the output does not show the action:\n%s", log)
			}
			files, m := b.oneBucketExport(t, prefix, step.domain)
			if m.WebsiteID != old.ID {
				t.Errorf("exported website %d, want %d (the one destroyed)", m.WebsiteID, old.ID)
			}
			checkBucketExport(t, files, export.FormatJSON, want)
			if _, ok := s.Website(old.ID); ok {
				t.Errorf("website %d is still on the server", old.ID)
			}
		})
	}
	if got := b.bucketExports(t, "none"); len(got) != 0 {
		t.Errorf("exports under the first configuration's prefix: %v", slices.Collect(mapKeys(got)))
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestAccStatisticsExportToBucket_refused: refused credentials, missing
// ones and a missing bucket fail the export before the analytics API is
// asked anything (a prefix that holds an earlier export, which a random
// part of each export's name keeps from happening, is refused by the
// store: TestExportBucket_existingPrefix), each with an error naming the destination and the cause
// and, at TF_LOG=trace, no secret; nothing is written.
func TestAccStatisticsExportToBucket_refused(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	b := newBucketEnv(t, s)
	const domain = "tf-acc-export-s3refused.example.com"
	const wrongSecret = "wrong-secret-7c2e9a4f1b8d3e6a0c5f" //nolint:gosec // a made-up key
	website := websiteBlock("main", domain, "")
	s.Apply(website)
	s.pageviews(t, []string{domain}, "2024-04-01")
	tests := []struct {
		name   string
		env    []string
		bucket string
		want   string
		// requests is the number of requests to the API: none.
		requests int
	}{
		{name: "wrong secret", env: s3test.Env(s3test.WriterKey, wrongSecret),
			want: `Error: Statistics Export Refused by the Store.*destination = "s3://` + b.bucket + `/refused\?.*SignatureDoesNotMatch`},
		{name: "no credentials", env: s3test.Env("", ""),
			want: `Error: No Credentials for the Statistics Export.*AWS_ACCESS_KEY_ID`},
		{name: "missing bucket", env: s3test.Env(s3test.WriterKey, s3test.WriterSecret), bucket: b.bucket + "-gone",
			want: `Error: Statistics Export Bucket Not Found.*` + b.bucket + `-gone.*never creates buckets`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bucket := b.bucket
			if tc.bucket != "" {
				bucket = tc.bucket
			}
			dest := strings.Replace(b.destination("refused", ""), "s3://"+b.bucket+"/", "s3://"+bucket+"/", 1)
			s.W.Write("main.tf", s.Config(website, exportAction("keep", fmt.Sprintf(
				"    domain      = %q\n    destination = %q\n", domain, dest))))
			before, _ := b.store.Objects(t.Context(), b.bucket, "")
			s.W.Env = append(tc.env, "TF_LOG=trace")
			s.ResetStats()
			out := s.W.MustRun(1, invokeExport...)
			if !acctest.ExpectError(tc.want).MatchString(out) {
				t.Errorf("the output does not match %q:\n%.5000s", tc.want, out)
			}
			noSecret(t, out, wrongSecret)
			if n := s.Stats().Total; n != tc.requests {
				t.Errorf("%d requests reached the analytics API (%v), want %d", n, s.Stats().ByRoute, tc.requests)
			}
			after, _ := b.store.Objects(t.Context(), b.bucket, "")
			if len(after) != len(before) {
				t.Errorf("the bucket held %d objects and now %d", len(before), len(after))
			}
			for k, v := range before {
				if string(after[k]) != string(v) {
					t.Errorf("%s changed", k)
				}
			}
		})
	}
	s.W.Env = s3test.Env(s3test.WriterKey, s3test.WriterSecret)
	s.W.Write("main.tf", s.Config(website))
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// TestAccStatisticsExportToBucket_storeFailsMidway: when the store starts
// failing in the middle of a before_destroy export, the objects written so
// far are deleted and the website, its statistics and the state stay, for
// terraform destroy (Terraform only warns; the provider refuses the
// delete) and for -replace; once the store works, the destroy goes ahead.
func TestAccStatisticsExportToBucket_storeFailsMidway(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	needsCLI(t, s.W, version1_16_0, "before_destroy action triggers")
	b := newBucketEnv(t, s)
	const domain = "tf-acc-export-s3fail.example.com"
	const ok = 5 // uploads before the store fails
	proxy := s3test.NewFailingProxy(t, b.store)
	failing := b.destination("midway", proxy.URL)
	s.Apply(exportedWebsiteTo(domain, failing))
	s.pageviews(t, []string{domain}, "2024-05-01", "2024-05-02")
	site, _ := s.WebsiteByDomain(domain)
	before := s.Statistics(site.ID)
	for _, step := range []struct {
		name string
		args []string
		want string
	}{
		{"destroy", []string{"destroy", "-auto-approve"},
			`Unable to Write the Statistics Export.*InternalError.*Error: Website Kept: Its Statistics Export Failed.*Refusing to delete the website "` + domain + `"`},
		{"-replace", []string{"apply", "-auto-approve", "-replace=analytics_website.main"}, `Error: Unable to Write the Statistics Export.*InternalError`},
	} {
		t.Run(step.name, func(t *testing.T) {
			proxy.Puts.Store(0)
			proxy.OKLeft.Store(ok)
			s.ResetStats()
			out := s.W.MustRun(1, step.args...)
			if !acctest.ExpectError(step.want).MatchString(out) {
				t.Errorf("the output does not match %q:\n%s", step.want, out)
			}
			if n := proxy.Puts.Load(); n <= ok {
				t.Errorf("%d uploads: the store never failed in the middle", n)
			}
			if n := s.Writes(); n != 0 {
				t.Errorf("%d write requests reached the server: %v", n, s.Stats().ByRoute)
			}
			if w, ok := s.Website(site.ID); !ok || w.Domain != domain {
				t.Fatalf("website %d left the server", site.ID)
			}
			if got := s.Statistics(site.ID); fmt.Sprint(got) != fmt.Sprint(before) {
				t.Errorf("the statistics changed")
			}
			if left := b.bucketExports(t, "midway"); len(left) != 0 {
				for f, files := range left {
					t.Errorf("the failed export left %s/ with %d files", f, len(files))
				}
			}
			if got := s.W.Read("terraform.tfstate"); !strings.Contains(got, `"id": "`+fmt.Sprint(site.ID)+`"`) {
				t.Errorf("the state lost the website:\n%s", got)
			}
		})
	}
	s.W.Write("main.tf", s.Config(exportedWebsiteTo(domain, b.destination("midway", ""))))
	s.W.MustRun(0, "destroy", "-auto-approve")
	if _, ok := s.Website(site.ID); ok {
		t.Errorf("website %d is still on the server", site.ID)
	}
	files, _ := b.oneBucketExport(t, "midway", domain)
	checkBucketExport(t, files, export.FormatJSON, wantExportFrom(before))
}

// TestAccStatisticsExportToBucket_cleanupRefused: when the store fails in
// the middle of an export and then refuses the cleanup's deletes (keys
// without s3:DeleteObject, object lock), the error says which objects
// remain and where, not that nothing was left behind.
func TestAccStatisticsExportToBucket_cleanupRefused(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	b := newBucketEnv(t, s)
	const domain = "tf-acc-export-s3nodelete.example.com"
	website := websiteBlock("main", domain, "")
	s.Apply(website)
	s.pageviews(t, []string{domain}, "2024-05-01")
	proxy := s3test.NewFailingProxy(t, b.store)
	proxy.OKLeft.Store(3)
	proxy.RefuseDeletes.Store(true)
	s.W.Write("main.tf", s.Config(website, exportAction("keep", fmt.Sprintf(
		"    domain      = %q\n    destination = %q\n", domain, b.destination("undeletable", proxy.URL)))))
	out := s.W.MustRun(1, invokeExport...)
	want := `Error: Unable to Write the Statistics Export.*InternalError.*could not all be removed: s3://` + b.bucket +
		`/undeletable/` + domain + `-[^ ]*/pageviews.json, .* may remain in s3://` + b.bucket + `/undeletable/` + domain +
		`-.*AccessDenied.*delete them by hand`
	if !acctest.ExpectError(want).MatchString(out) {
		t.Errorf("the output does not match %q:\n%s", want, out)
	}
	if strings.Contains(out, "No export was left behind") {
		t.Errorf("the output says that nothing was left behind:\n%s", out)
	}
	if left := b.bucketExports(t, "undeletable"); len(left) != 1 {
		t.Errorf("the store holds %d exports, want the one whose cleanup it refused", len(left))
	}
	s.W.Write("main.tf", s.Config(website))
	s.W.MustRun(0, "destroy", "-auto-approve")
}

// TestAccStatisticsExportToBucket_invalidDestination: a destination that
// cannot be one is refused at plan time, naming the attribute and what to
// write instead, without a request and without repeating a secret; so is a
// configuration with both directory and destination, or neither.
func TestAccStatisticsExportToBucket_invalidDestination(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	const secret = "plan-time-secret-1e5c9b7a3d2f8e4c" //nolint:gosec // a made-up key
	for _, tc := range []struct{ name, config, want string }{
		{"credentials in the URL", `    destination = "s3://AKIAEXAMPLE:` + secret + `@bucket/x"` + "\n",
			`Error: Invalid Export Destination.*destination holds credentials.*AWS_ACCESS_KEY_ID`},
		{"unknown parameter", `    destination = "s3://bucket/x?secret_key=` + secret + `"` + "\n",
			`Error: Invalid Export Destination.*the query parameter "secret_key" is not one an s3:// destination takes`},
		{"port on the bucket", `    destination = "s3://127.0.0.1:9000/x"` + "\n",
			`Error: Invalid Export Destination.*holds a colon, as a host with a port.*endpoint=http://host:port`},
		{"mistyped scheme", `    destination = "s3:/bucket/x"` + "\n",
			`Error: Invalid Export Destination.*mistyped scheme separator.*s3://bucket/prefix`},
		{"setting after a semicolon", `    destination = "s3://bucket/x?region=eu-west-1;endpoint=http://127.0.0.1:9000"` + "\n",
			`Error: Invalid Export Destination.*cannot be read.*separate the settings with &`},
		{"other scheme", `    destination = "gs://bucket/x"` + "\n", `Error: Invalid Export Destination.*the scheme "gs" is not supported`},
		{"both", `    destination = "s3://bucket/x"` + "\n" + `    directory   = "exports"` + "\n",
			`Error: Invalid Attribute Combination.*\[directory,destination\]`},
		{"neither", "", `Error: Invalid Attribute Combination.*No attribute specified.*\[directory,destination\]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.W.Write("main.tf", s.Config(exportAction("keep", "    domain      = \"example.com\"\n"+tc.config)))
			s.ResetStats()
			out := s.W.MustRun(1, "plan", "-input=false")
			if !acctest.ExpectError(tc.want).MatchString(out) {
				t.Errorf("the output does not match %q:\n%s", tc.want, out)
			}
			// Terraform quotes the configuration's line in its
			// diagnostic; the provider's own text must not repeat it.
			var own []string
			for line := range strings.Lines(out) {
				if !strings.Contains(line, "destination = ") {
					own = append(own, line)
				}
			}
			noSecret(t, strings.Join(own, ""), secret)
			if n := s.Stats().Total; n != 0 {
				t.Errorf("%d requests at plan time", n)
			}
		})
	}
}

// TestAccStatisticsExport_destinationFolder: a destination that is a
// file:// URL or a path writes into that folder, as directory does.
func TestAccStatisticsExport_destinationFolder(t *testing.T) {
	acctest.CLIDependent(t, "actions: Terraform 1.14 (before_destroy triggers 1.16); OpenTofu has none")
	s := newExportEnv(t, emulator.Options{})
	const domain = "tf-acc-export-dest.example.com"
	website := websiteBlock("main", domain, "")
	s.Apply(website)
	s.pageviews(t, []string{domain}, "2024-09-01")
	site, _ := s.WebsiteByDomain(domain)
	want := wantExport(s, site.ID)
	for name, dest := range map[string]func(dir string) string{
		"file URL": func(dir string) string { return "file://" + filepath.ToSlash(dir) },
		"path":     func(dir string) string { return dir },
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "exports")
			s.W.Write("main.tf", s.Config(website, exportAction("keep", fmt.Sprintf(
				"    website_id  = analytics_website.main.id\n    destination = %q\n", dest(dir)))))
			s.W.MustRun(0, invokeExport...)
			folder, m := oneExport(t, dir, domain)
			checkExport(t, folder, export.FormatJSON, want)
			if m.WebsiteID != site.ID {
				t.Errorf("manifest %+v", m)
			}
		})
	}
	s.W.Write("main.tf", s.Config(website))
	s.W.MustRun(0, "destroy", "-auto-approve")
}
