package provider

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// auditedRequest is what requestAudit keeps of one API request.
type auditedRequest struct {
	method   string
	path     string
	password *string // the password form field, nil when not sent
}

// requestAudit wraps the emulator and checks every request the provider
// sends: the API key only in "Authorization: Bearer", nowhere else (URL,
// other headers, body); it also records which requests carried a password.
type requestAudit struct {
	key string

	mu       sync.Mutex
	requests []auditedRequest
	problems []string
}

func (a *requestAudit) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		a.check(r, body)
		next.ServeHTTP(w, r)
	})
}

func (a *requestAudit) check(r *http.Request, body []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	what := r.Method + " " + r.URL.Path
	if got := r.Header.Get("Authorization"); got != "Bearer "+a.key {
		a.problems = append(a.problems, what+": the Authorization header is not \"Bearer <key>\"")
	}
	forms := []string{a.key, url.QueryEscape(a.key), url.PathEscape(a.key)}
	for name, values := range r.Header {
		if name == "Authorization" {
			continue
		}
		for _, v := range values {
			for _, f := range forms {
				if strings.Contains(v, f) {
					a.problems = append(a.problems, what+": the API key is in the "+name+" header")
				}
			}
		}
	}
	for _, f := range forms {
		if strings.Contains(r.URL.String(), f) || strings.Contains(r.RequestURI, f) {
			a.problems = append(a.problems, what+": the API key is in the URL")
		}
		if bytes.Contains(body, []byte(f)) {
			a.problems = append(a.problems, what+": the API key is in the body")
		}
	}
	req := auditedRequest{method: r.Method, path: r.URL.Path}
	if len(body) > 0 {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			a.problems = append(a.problems, what+": the body is not a form: "+err.Error())
		}
		if form.Has("password") {
			pw := form.Get("password")
			req.password = &pw
		}
	}
	a.requests = append(a.requests, req)
}

// verify fails the test on any problem, or if no request was seen at all.
func (a *requestAudit) verify(t *testing.T, env *acctest.Env) {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.requests) == 0 {
		t.Error("the audit saw no API request")
	}
	for _, p := range a.problems {
		t.Error(p)
	}
	if n := env.Stats().KeyOutsideHeader; n != 0 {
		t.Errorf("the emulator saw the API key outside the Authorization header %d times", n)
	}
}

// lastWrite returns the last request of method (POST or PUT).
func (a *requestAudit) lastWrite(method string) (auditedRequest, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.requests) - 1; i >= 0; i-- {
		if a.requests[i].method == method {
			return a.requests[i], true
		}
	}
	return auditedRequest{}, false
}

// checkLastWrite checks whether the last POST/PUT sent a password, and which.
func (a *requestAudit) checkLastWrite(method string, wantPassword *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		req, ok := a.lastWrite(method)
		switch {
		case !ok:
			return fmt.Errorf("no %s request was sent", method)
		case wantPassword == nil && req.password != nil:
			return fmt.Errorf("%s %s sent a password, want none", req.method, req.path)
		case wantPassword != nil && req.password == nil:
			return fmt.Errorf("%s %s sent no password", req.method, req.path)
		case wantPassword != nil && *req.password != *wantPassword:
			return fmt.Errorf("%s %s sent another password than the configured one", req.method, req.path)
		}
		return nil
	}
}

func checkStoredPassword(env *acctest.Env, domain, want string) resource.TestCheckFunc {
	return env.CheckEmulator(domain, func(w emulator.Website) error {
		if w.Password != want {
			return fmt.Errorf("the password stored on the server is not the expected one (%d characters, want %d)",
				len(w.Password), len(want))
		}
		return nil
	})
}

// secretsIn returns the secrets found in data, by index.
func secretsIn(data []byte, secrets []string) []int {
	var found []int
	for i, s := range secrets {
		if bytes.Contains(data, []byte(s)) || bytes.Contains(data, []byte(url.QueryEscape(s))) {
			found = append(found, i)
		}
	}
	return found
}

// scanTree reports every file under root (and every member of zip files,
// such as saved plans) that contains one of secrets, by the secret's name.
func scanTree(t *testing.T, root string, names, secrets []string) (files int) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err // directories, and links (e.g. to the test's testdata)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, i := range secretsIn(data, secrets) {
			t.Errorf("%s contains the %s", p, names[i])
		}
		if zr, zerr := zip.NewReader(bytes.NewReader(data), int64(len(data))); zerr == nil {
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					return err
				}
				member, err := io.ReadAll(rc)
				_ = rc.Close()
				if err != nil {
					return err
				}
				for _, i := range secretsIn(member, secrets) {
					t.Errorf("%s (member %s) contains the %s", p, f.Name, names[i])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("scanning %s: %v", root, err)
	}
	return files
}

// planOutputs returns the human-readable plans that terraform-plugin-testing
// logs at trace level ("Created plan with changes", field
// test_terraform_plan), as hclog writes multi-line fields: one "| " line
// each.
func planOutputs(log string) []string {
	var plans []string
	lines := strings.Split(log, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.Contains(lines[i], "Created plan with changes") {
			continue
		}
		var b strings.Builder
		for j := i + 1; j < len(lines); j++ {
			l := strings.TrimSpace(lines[j])
			if l == "test_terraform_plan=" || strings.HasPrefix(l, "| ") || l == "|" {
				b.WriteString(strings.TrimPrefix(strings.TrimPrefix(l, "|"), " ") + "\n")
				continue
			}
			if strings.HasPrefix(l, "test_terraform_plan=") {
				b.WriteString(strings.TrimPrefix(l, "test_terraform_plan=") + "\n")
				continue
			}
			i = j - 1
			break
		}
		plans = append(plans, b.String())
	}
	return plans
}

// A full create / update / import / destroy run with every log at trace
// level (Terraform's own, and the in-process provider's, SDK's and
// framework's through terraform-plugin-log's test sink) never shows the API
// key or a password, nor does the plan output; and the client never sends
// the key anywhere but the Authorization header.
//
// The secrets reach Terraform as sensitive variables (TF_VAR_*), as in real
// use: terraform-plugin-testing itself logs each step's configuration text at
// trace level, so literal secrets in the test configuration would be found
// in the log without any fault of Terraform or the provider.
func TestAccWebsite_secretsNotLogged(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	acctest.CLIDependent(t, "what each CLI logs at trace level; write-only attributes: Terraform 1.11")
	acctest.NeedsEmulator(t, "audits every request the emulator receives for the key and the password (a handler around the emulator)")
	const (
		apiKey    = "SecretApiKey0x5d1c0ffee0ddba11b16b00b57e57ab1e0123456789abcdefZZ" // 64 characters
		password1 = "SecretPassOne-8c6f1e2d4a"
		password2 = "SecretPassTwo-3b9a7c4e5f"
		domain    = "secret-check.example.com"
	)
	names := []string{"API key", "first password", "second password"}
	secrets := []string{apiKey, password1, password2}

	audit := &requestAudit{key: apiKey}
	env := acctest.New(t, acctest.Emulator(emulator.Options{Users: []emulator.User{{Key: apiKey}}}), acctest.Wrap(audit.wrap))

	logPath := filepath.Join(t.TempDir(), "terraform-acc.log")
	// TF_ACC_LOG_PATH: Terraform's log (TF_LOG_PATH of every CLI run) and
	// the in-process provider's (terraform-plugin-log's test sink, which
	// then logs at TRACE) go to this one file.
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	t.Setenv("TF_LOG_PATH_MASK", "") // it would take precedence
	t.Setenv("TF_ACC_LOG", "TRACE")  // Terraform CLI (TF_LOG of each run)
	t.Setenv("TF_LOG_CORE", "")      // may not be set with TF_ACC_LOG
	t.Setenv("TF_LOG", "TRACE")      // Go's log package in this process
	for _, name := range []string{"TF_LOG_PROVIDER", "TF_LOG_PROVIDER_ANALYTICS", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(name, "TRACE")
	}
	t.Setenv("TF_LOG_SDK_PROTO_DATA_DIR", "") // raw protocol dumps hold everything by design
	t.Setenv("TF_VAR_analytics_api_key", apiKey)

	cfg := func(extra string) string {
		return fmt.Sprintf(`
variable "analytics_api_key" {
  type      = string
  sensitive = true
}

variable "site_password" {
  type      = string
  sensitive = true
}

provider "analytics" {
  base_url = %q
  api_key  = var.analytics_api_key
}
`, env.URL) + websiteHCL(`
  domain      = "`+domain+`"
  privacy     = "password"
  password    = var.site_password
  exclude_ips = ["192.0.2.1"]
`+extra)
	}
	env.TestCase(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				PreConfig: func() { t.Setenv("TF_VAR_site_password", password1) },
				Config:    cfg(""),
				Check:     resource.ComposeTestCheckFunc(checkStoredPassword(env, domain, password1), audit.checkLastWrite(http.MethodPost, ptr(password1))),
			},
			{
				PreConfig: func() { t.Setenv("TF_VAR_site_password", password2) },
				Config:    cfg("email_reports = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeTestCheckFunc(checkStoredPassword(env, domain, password2), audit.checkLastWrite(http.MethodPut, ptr(password2))),
			},
			{
				ResourceName:            websiteAddr,
				ImportState:             true,
				ImportStateId:           domain,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"password", "exclude_params"},
			},
		},
	})
	if t.Failed() {
		return
	}
	audit.verify(t, env)

	raw, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("reading the log: %v", err)
	}
	log := string(raw)
	if len(raw) == 0 {
		t.Fatal("the log is empty")
	}
	// The log must hold what a leak would be found in, or the test proves
	// nothing: Terraform's own trace log, the provider's tflog lines of
	// create, update, import and delete, the framework's and the protocol
	// SDK's trace lines, and the domain.
	for _, want := range []string{
		domain,
		// the provider's own tflog lines, through the test sink
		"analytics: created website", "analytics: updated website", "analytics: import: found website by domain",
		"analytics: deleted website", "[DEBUG] analytics: configured analytics API client",
		"[TRACE] sdk.framework: ", "[TRACE] sdk.proto: ", // framework and protocol SDK, in-process
		"[TRACE] GRPCProvider.v6: ",       // Terraform CLI, calling the provider
		"Setting Terraform configuration", // terraform-plugin-testing
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log does not contain %q, so it does not capture everything it should", want)
		}
	}
	if !regexp.MustCompile(`(Terraform|OpenTofu) version: `).MatchString(log) {
		t.Error("the log does not contain the CLI's own version line")
	}
	for _, i := range secretsIn(raw, secrets) {
		for _, line := range strings.Split(log, "\n") {
			if strings.Contains(line, secrets[i]) {
				t.Errorf("the log contains the %s, e.g. in: %.300s", names[i], strings.ReplaceAll(line, secrets[i], "<"+names[i]+">"))
				break
			}
		}
	}

	// The plan output, as the harness logged it: it shows the website (the
	// creation its domain) and the password only as "(sensitive value)".
	plans := planOutputs(log)
	if len(plans) < 2 {
		t.Fatalf("found %d plan outputs in the log, want at least 2 (create and update)", len(plans))
	}
	for i, p := range plans {
		if !strings.Contains(p, websiteAddr) || !strings.Contains(p, "password") || !strings.Contains(p, "(sensitive value)") {
			t.Errorf("plan output %d does not show the website and a sensitive password:\n%s", i, p)
		}
		for _, j := range secretsIn([]byte(p), secrets) {
			t.Errorf("plan output %d contains the %s", i, names[j])
		}
	}
	if !regexp.MustCompile(`domain\s+= "` + regexp.QuoteMeta(domain) + `"`).MatchString(plans[0]) {
		t.Errorf("the creation's plan output does not show the domain:\n%s", plans[0])
	}
}

// password_wo: the password is sent on create and when password_wo_version
// changes, never otherwise, and is stored neither in the state nor in saved
// plans. Write-only attributes need Terraform or OpenTofu 1.11 or later; the
// test runs under OpenTofu 1.12 (see GNUmakefile) and is skipped under
// Terraform 1.8.
func TestAccWebsite_passwordWriteOnly(t *testing.T) {
	acctest.Serial(t, "sets the process's environment (t.Setenv)")
	acctest.CLIDependent(t, "write-only attributes (password_wo): Terraform 1.11")
	acctest.NeedsEmulator(t, "audits the password sent in every request (a handler around the emulator) and reads the stored password, which the API never returns")
	const (
		domain    = "write-only.example.com"
		password1 = "WriteOnlyPassOne-71f3c2"
		password2 = "WriteOnlyPassTwo-9d04e8"
	)
	audit := &requestAudit{key: emulator.DefaultAPIKey}
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(audit.wrap))
	// Keep every step's working directory (state, saved plan) to scan it.
	workDir := t.TempDir()
	t.Setenv("TF_ACC_PERSIST_WORKING_DIR", "1")

	// The password comes from an ephemeral variable, which only write-only
	// attributes (and other ephemeral contexts) accept.
	// The variable's value is set by each step's PreConfig (setPassword).
	cfg := func(version int, extra string) string {
		return env.Config(`
variable "site_password" {
  type      = string
  sensitive = true
  ephemeral = true
}
`, websiteHCL(fmt.Sprintf(`
  domain              = %q
  privacy             = "password"
  password_wo         = var.site_password
  password_wo_version = %d
%s`, domain, version, extra)))
	}
	setPassword := func(pw string) func() { return func() { t.Setenv("TF_VAR_site_password", pw) } }
	noPasswordInState := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo"), knownvalue.Null()),
		statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password"), knownvalue.Null()),
	}
	versionIs := func(v int64) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Int64Exact(v))
	}
	idOf := func() int64 {
		w, ok := env.WebsiteByDomain(domain)
		if !ok {
			t.Fatalf("the emulator has no website %s", domain)
		}
		return w.ID
	}

	env.TestCase(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		WorkingDir:             workDir,
		Steps: []resource.TestStep{
			{ // create: the password is sent, and not stored
				PreConfig:         setPassword(password1),
				Config:            cfg(1, ""),
				ConfigStateChecks: append(noPasswordInState, versionIs(1)),
				Check: resource.ComposeTestCheckFunc(
					checkStoredPassword(env, domain, password1),
					audit.checkLastWrite(http.MethodPost, ptr(password1)),
				),
			},
			{ // another change, same version: the update leaves the password alone
				PreConfig: setPassword(password2),
				Config:    cfg(1, "email_reports = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: append(noPasswordInState, versionIs(1)),
				Check: resource.ComposeTestCheckFunc(
					checkStoredPassword(env, domain, password1),
					audit.checkLastWrite(http.MethodPut, nil),
					env.CheckEmulator(domain, func(w emulator.Website) error { return intIs("email", w.Email, 1) }),
				),
			},
			{ // a new version sends the password again
				PreConfig: setPassword(password2),
				Config:    cfg(2, "email_reports = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: append(noPasswordInState, versionIs(2)),
				Check: resource.ComposeTestCheckFunc(
					checkStoredPassword(env, domain, password2),
					audit.checkLastWrite(http.MethodPut, ptr(password2)),
				),
			},
			{ // the password removed outside Terraform: planned as a version change, and set again
				PreConfig: func() {
					setPassword(password2)()
					env.UpdateWebsite(idOf(), func(w *emulator.Website) { w.Password = "" })
				},
				Config: cfg(2, "email_reports = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Int64Exact(2)),
					},
				},
				ConfigStateChecks: append(noPasswordInState, versionIs(2)),
				Check:             checkStoredPassword(env, domain, password2),
			},
			{ // a changed write-only value alone is no change
				PreConfig: setPassword(password1),
				Config:    cfg(2, "email_reports = true"),
				PlanOnly:  true,
			},
			{ // leaving password privacy clears the password
				Config: env.Config(websiteHCL(fmt.Sprintf("domain = %q\nprivacy = \"private\"", domain))),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(
					checkStoredPassword(env, domain, ""),
					audit.checkLastWrite(http.MethodPut, ptr("")),
				),
			},
			{ // back to password privacy: sent (leaving it removed the version from the state)
				PreConfig: setPassword(password1),
				Config:    cfg(2, ""),
				Check: resource.ComposeTestCheckFunc(
					checkStoredPassword(env, domain, password1),
					audit.checkLastWrite(http.MethodPut, ptr(password1)),
				),
			},
			{
				ResourceName:            websiteAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"exclude_params", "password_wo_version"},
			},
		},
	})
	if t.Failed() {
		return
	}
	audit.verify(t, env)

	// No state file, saved plan or other file the runs left behind holds a
	// password. The scan must have found the state files to mean anything.
	names := []string{"first password", "second password"}
	if n := scanTree(t, workDir, names, []string{password1, password2}); n == 0 {
		t.Fatal("no file found in the working directories")
	}
	var states int
	_ = filepath.WalkDir(workDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tfstate") {
			if data, rerr := os.ReadFile(p); rerr == nil && bytes.Contains(data, []byte(domain)) {
				states++
			}
		}
		return nil
	})
	if states == 0 {
		t.Error("found no state file naming the website in the working directories")
	}
}

// Terraform before 1.11 cannot send write-only values: the framework refuses
// password_wo at validation, naming the version needed.
func TestAccWebsite_passwordWriteOnlyNeedsTerraform111(t *testing.T) {
	acctest.CLIDependent(t, "write-only attributes (password_wo): Terraform 1.11")
	env := acctest.New(t)
	env.TestCase(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipAbove(tfversion.Version1_10_0)},
		// Nothing was made, and nothing is listed to show it: the request
		// count below must stay 0.
		CheckDestroy: func(*terraform.State) error { return nil },
		Steps: []resource.TestStep{{
			Config: env.Config(websiteHCL(fmt.Sprintf(`
  domain              = %q
  privacy             = "password"
  password_wo         = "s3cret-pass"
  password_wo_version = 1
`, env.Domain("old-terraform")))),
			PlanOnly:    true,
			ExpectError: acctest.ExpectError(`WriteOnly Attribute Not Allowed.*password_wo.*only supported in Terraform 1.11 and later`),
		}},
	})
	if env.Emulator == nil { // requests are counted on the in-process emulator only
		return
	}
	if n := env.Emulator.Stats().Total; n != 0 {
		t.Errorf("%d API requests, want 0", n)
	}
}
