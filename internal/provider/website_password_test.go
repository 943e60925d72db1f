package provider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// The password is the one value the provider can neither read back nor
// restore: these tests pin the rules that keep it. A password set in the
// web interface survives every change Terraform makes; "0", which the server
// stores as no password, is refused even when it is unknown at plan time;
// and a password the server accepts but stores as none for a reason the
// validators cannot know of leaves a warning, not an inconsistent result
// that taints the website.

// pwModel is a website model with the given privacy, password and
// password_wo_version (nil for null).
func pwModel(privacy string, password *string, woVersion *int64) websiteResourceModel {
	return websiteResourceModel{
		Privacy:       types.StringValue(privacy),
		Password:      types.StringPointerValue(password),
		PasswordWOVer: types.Int64PointerValue(woVersion),
	}
}

func TestKeepSentPassword(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		// got is the model after applyWebsite (the server's view), planned
		// the plan before it, sent the password sent (nil: none).
		got, planned websiteResourceModel
		sent         *string
		want         websiteResourceModel
		warn         string // the warning's summary, "" for none
	}{
		{
			name:    "the server stores the password",
			got:     pwModel(privacyPassword, ptr("pw-one"), nil),
			planned: pwModel(privacyPassword, ptr("pw-one"), nil),
			sent:    ptr("pw-one"),
			want:    pwModel(privacyPassword, ptr("pw-one"), nil),
		},
		{
			name:    "the server stores password_wo",
			got:     pwModel(privacyPassword, nil, ptr[int64](2)),
			planned: pwModel(privacyPassword, nil, ptr[int64](2)),
			sent:    ptr("pw-one"),
			want:    pwModel(privacyPassword, nil, ptr[int64](2)),
		},
		{
			name:    "password \"0\" reads back as none",
			got:     pwModel(privacyPassword, nil, nil),
			planned: pwModel(privacyPassword, ptr("0"), nil),
			sent:    ptr("0"),
			want:    pwModel(privacyPassword, ptr("0"), nil),
			warn:    "Password Not Stored",
		},
		{
			name:    "password_wo \"0\" reads back as none",
			got:     pwModel(privacyPassword, nil, nil),
			planned: pwModel(privacyPassword, nil, ptr[int64](1)),
			sent:    ptr("0"),
			want:    pwModel(privacyPassword, nil, ptr[int64](1)),
			warn:    "Password Not Stored",
		},
		{
			// Update sends password_wo again when it finds the password
			// removed (writeOnlyPasswordLost); if it could not, the
			// version stays as planned, for the next plan to repair.
			name:    "password_wo removed on the server, not sent again",
			got:     pwModel(privacyPassword, nil, nil),
			planned: pwModel(privacyPassword, nil, ptr[int64](1)),
			want:    pwModel(privacyPassword, nil, ptr[int64](1)),
			warn:    "Password Missing on the Server",
		},
		{
			name:    "leaving password privacy clears the password",
			got:     pwModel(privacyPublic, nil, nil),
			planned: pwModel(privacyPublic, nil, nil),
			sent:    ptr(""),
			want:    pwModel(privacyPublic, nil, nil),
		},
		{
			name:    "no password sent",
			got:     pwModel(privacyPassword, nil, nil),
			planned: pwModel(privacyPassword, nil, nil),
			want:    pwModel(privacyPassword, nil, nil),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := c.got
			var diags diag.Diagnostics
			keepSentPassword(&got, c.planned, c.sent, &diags)
			if !got.Password.Equal(c.want.Password) || !got.PasswordWOVer.Equal(c.want.PasswordWOVer) {
				// The password's value is a test value, but say only whether
				// it is set, as messages about passwords do.
				t.Errorf("password set %t, password_wo_version %s; want password set %t, password_wo_version %s",
					!got.Password.IsNull(), got.PasswordWOVer, !c.want.Password.IsNull(), c.want.PasswordWOVer)
			}
			if diags.HasError() {
				t.Errorf("errors: %v", diags)
			}
			want := 0
			if c.warn != "" {
				want = 1
			}
			if w := diags.Warnings(); len(w) != want || (want == 1 && w[0].Summary() != c.warn) {
				t.Errorf("warnings %v, want %q", w, c.warn)
			}
		})
	}
}

// An update that sent no password but finds none on the server, under
// "password" privacy with password_wo configured, sends password_wo again.
func TestWriteOnlyPasswordLost(t *testing.T) {
	t.Parallel()
	website := func(privacy int, passwordSet bool) *client.Website {
		return &client.Website{Privacy: &privacy, PasswordSet: passwordSet}
	}
	cases := []struct {
		name     string
		w        *client.Website
		sent, wo *string
		want     bool
	}{
		{"removed, nothing sent", website(client.PrivacyPassword, false), nil, ptr("pw-wo"), true},
		{"still set", website(client.PrivacyPassword, true), nil, ptr("pw-wo"), false},
		{"password_wo just sent", website(client.PrivacyPassword, false), ptr("pw-wo"), ptr("pw-wo"), false},
		{"no password_wo configured", website(client.PrivacyPassword, false), nil, nil, false},
		{"empty password_wo", website(client.PrivacyPassword, false), nil, ptr(""), false},
		{"private", website(client.PrivacyPrivate, false), nil, ptr("pw-wo"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := writeOnlyPasswordLost(c.w, c.sent, c.wo); got != c.want {
				t.Errorf("got %t, want %t", got, c.want)
			}
		})
	}
}

// input sends an empty password, which clears it, only when the website
// leaves "password" privacy and Terraform had set the password; a password
// set in the web interface of an imported website is never sent.
func TestInputClearsOnlyPasswordsTerraformSet(t *testing.T) {
	t.Parallel()
	imported := pwModel(privacyPassword, nil, nil) // the state of a website imported with a password
	cases := []struct {
		name   string
		plan   websiteResourceModel
		prior  *websiteResourceModel
		want   *string
		wantAs string // for messages
	}{
		{"imported, to public", pwModel(privacyPublic, nil, nil), &imported, nil, "not sent"},
		{"imported, to private", pwModel(privacyPrivate, nil, nil), &imported, nil, "not sent"},
		{"imported, stays password", pwModel(privacyPassword, nil, nil), &imported, nil, "not sent"},
		{"set by password, to public", pwModel(privacyPublic, nil, nil), ptr(pwModel(privacyPassword, ptr("pw"), nil)), ptr(""), "sent empty"},
		{"set by password_wo, to private", pwModel(privacyPrivate, nil, nil), ptr(pwModel(privacyPassword, nil, ptr[int64](1))), ptr(""), "sent empty"},
		{"created public", pwModel(privacyPublic, nil, nil), nil, nil, "not sent"},
		{"a new password", pwModel(privacyPassword, ptr("pw-two"), nil), &imported, ptr("pw-two"), "sent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.plan.Domain = types.StringValue("tf-acc-pw.example.com")
			var diags diag.Diagnostics
			in := c.plan.input(context.Background(), c.prior, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if (in.Password == nil) != (c.want == nil) || (in.Password != nil && *in.Password != *c.want) {
				t.Errorf("password sent: %s, want %s", describeSent(in.Password), c.wantAs)
			}
		})
	}
}

// describeSent says how input sends a password, without its value.
func describeSent(pw *string) string {
	switch {
	case pw == nil:
		return "not sent"
	case *pw == "":
		return "sent empty"
	}
	return "sent"
}

// Switching an imported website whose password was set in the web interface
// to "public" or "private" keeps that password on the server: Terraform
// never set it, so it never clears it. On the other CLIs (acctest.RepeatPass)
// it runs the switch to "public" only: the import and the update after it
// are the same CLI calls; the provider's update to "private" ran on
// Terraform 1.8.5.
func TestAccWebsite_leavingPasswordPrivacyKeepsForeignPassword(t *testing.T) {
	acctest.CLIDependent(t, "import blocks: the CLI plans the import and calls the provider's import and read")
	acctest.NeedsEmulator(t, "reads the password the server stores, which the API never returns")
	acctest.Parent(t)
	targets := []string{privacyPublic, privacyPrivate}
	if acctest.RepeatPass() {
		targets = targets[:1]
	}
	for _, to := range targets {
		t.Run("to "+to, func(t *testing.T) {
			const domain = "tf-acc-pw-ui.example.com"
			env := acctest.New(t, acctest.Emulator(emulator.Options{}))
			w := env.Seed(env.Key, emulator.Website{Domain: domain, Settings: wire.Settings{Privacy: ptr(2), Password: "from-the-ui", Email: ptr(0), ExcludeBots: ptr(1)}})
			cfg := func(privacy string) string {
				return env.Config(fmt.Sprintf(`
import {
  to = analytics_website.test
  id = "%d"
}
`, w.ID), websiteHCL(fmt.Sprintf("  domain  = %q\n  privacy = %q\n", domain, privacy)))
			}
			env.Test(t, []resource.TestStep{
				{
					Config: cfg(privacyPassword),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionNoop)},
					},
					Check: checkStoredPassword(env, domain, "from-the-ui"),
				},
				{
					Config: cfg(to),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate)},
					},
					Check: resource.ComposeTestCheckFunc(
						env.CheckEmulator(domain, func(w emulator.Website) error {
							return intIs("privacy", w.Privacy, map[string]int{privacyPublic: 0, privacyPrivate: 1}[to])
						}),
						checkStoredPassword(env, domain, "from-the-ui"),
					),
				},
			}...)
		})
	}
}

// A password unknown at plan time (here terraform_data's output) is checked
// when Terraform applies: "0", which the server would store as no password,
// is refused before anything is sent.
func TestAccWebsite_passwordZeroUnknownAtPlan(t *testing.T) {
	const domain = "tf-acc-pw-zero.example.com"
	env := acctest.New(t, acctest.Emulator(emulator.Options{}))
	env.Test(t, []resource.TestStep{
		{
			Config: env.Config(passwordFromData("0"), websiteHCL(fmt.Sprintf(`
  domain   = %q
  privacy  = "password"
  password = terraform_data.password.output
`, domain))),
			ExpectError: acctest.ExpectError(`Invalid Password.*The password "0" is stored, but the server treats it as no password`),
		},
		{
			PreConfig: func() {
				if n := len(env.Websites()); n != 0 {
					t.Errorf("the refused apply left %d websites on the server", n)
				}
			},
			Config: env.Config(passwordFromData("pw-one-two"), websiteHCL(fmt.Sprintf(`
  domain   = %q
  privacy  = "password"
  password = terraform_data.password.output
`, domain))),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(websiteAddr, tfjsonpath.New("password")),
				},
			},
			Check: checkStoredPassword(env, domain, "pw-one-two"),
		},
	}...)
}

// passwordFromData is a terraform_data resource whose output, unknown until
// it is applied, is password.
func passwordFromData(password string) string {
	return fmt.Sprintf("resource \"terraform_data\" \"password\" {\n  input = %q\n}\n", password)
}

// storedAsNone is a password that storesAsNone makes the server store as
// no password.
const storedAsNone = "pw-stored-as-none"

// storesAsNone makes the server store the password storedAsNone as "0",
// which it reads back as no password: a server that accepts a password and
// treats it as empty, which the provider's validators cannot know of.
func storesAsNone(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost || r.Method == http.MethodPut {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if form, err := url.ParseQuery(string(body)); err == nil && form.Get("password") == storedAsNone {
				form.Set("password", "0")
				body = []byte(form.Encode())
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		next.ServeHTTP(w, r)
	})
}

// A password the server accepts but stores as none ends the apply with the
// website in the state as planned (and a "Password Not Stored" warning), not
// with "Provider produced inconsistent result" and a tainted website that
// the next apply would replace, deleting its statistics: on create and on
// update. The next plan sets the password again, in place.
func TestAccWebsite_passwordStoredAsNone(t *testing.T) {
	const domain = "tf-acc-pw-none.example.com"
	env := acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(storesAsNone))
	cfg := func(password string) string {
		return env.Config(websiteHCL(fmt.Sprintf("  domain   = %q\n  privacy  = \"password\"\n  password = %q\n", domain, password)))
	}
	var id string
	keptInPlace := func(s *terraform.State) error {
		rs := s.RootModule().Resources[websiteAddr]
		if rs == nil {
			return fmt.Errorf("%s is not in the state", websiteAddr)
		}
		if rs.Primary.Tainted {
			return fmt.Errorf("%s is tainted", websiteAddr)
		}
		if id == "" {
			id = rs.Primary.ID
		} else if rs.Primary.ID != id {
			return fmt.Errorf("%s was replaced: id %s, was %s", websiteAddr, rs.Primary.ID, id)
		}
		if n := len(env.Websites()); n != 1 {
			return fmt.Errorf("the server holds %d websites, want 1", n)
		}
		return nil
	}
	passwordInState := func(pw string) []statecheck.StateCheck {
		return []statecheck.StateCheck{statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password"), knownvalue.StringExact(pw))}
	}
	actionIs := func(a plancheck.ResourceActionType) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(websiteAddr, a)}}
	}
	env.Test(t, []resource.TestStep{
		{
			Config:            cfg(storedAsNone),
			ConfigPlanChecks:  actionIs(plancheck.ResourceActionCreate),
			ConfigStateChecks: passwordInState(storedAsNone),
			Check:             resource.ComposeTestCheckFunc(keptInPlace, checkStoredPassword(env, domain, "0")),
			// The refresh reads back no password, so the plan sets it again.
			ExpectNonEmptyPlan: true,
		},
		{
			Config:           cfg("pw-one-two"),
			ConfigPlanChecks: actionIs(plancheck.ResourceActionUpdate),
			Check:            resource.ComposeTestCheckFunc(keptInPlace, checkStoredPassword(env, domain, "pw-one-two")),
		},
		{
			Config:             cfg(storedAsNone),
			ConfigPlanChecks:   actionIs(plancheck.ResourceActionUpdate),
			ConfigStateChecks:  passwordInState(storedAsNone),
			Check:              resource.ComposeTestCheckFunc(keptInPlace, checkStoredPassword(env, domain, "0")),
			ExpectNonEmptyPlan: true,
		},
		{ // the next apply repairs nothing by replacing: an update in place
			Config:             cfg(storedAsNone),
			ConfigPlanChecks:   actionIs(plancheck.ResourceActionUpdate),
			Check:              keptInPlace,
			ExpectNonEmptyPlan: true,
		},
	}...)
}

// A password_wo removed on the server where the plan cannot see it (an
// apply with -refresh=false, or a removal between the refresh and the
// apply), with an unrelated change: the update finds the website without a
// password although password_wo is configured, sends password_wo again and
// keeps password_wo_version as planned, instead of failing with "Provider
// produced inconsistent result ... password_wo_version: was 1, but now
// null". (With a refresh, the removal shows in the plan: see
// TestAccWebsite_passwordWriteOnly.) Write-only attributes need Terraform or
// OpenTofu 1.11 or later.
func TestAccWebsite_passwordWriteOnlyRemovedUnseen(t *testing.T) {
	acctest.CLIDependent(t, "write-only attributes (password_wo): Terraform 1.11")
	acctest.NeedsEmulator(t, "removes the password between the refresh and the apply with a handler in front of the API, and reads the stored password, which the API never returns")
	acctest.Parent(t)
	const password = "WriteOnlyUnseen-5c81a7"
	cases := []struct {
		name string
		// noRefresh plans every step with -refresh=false; else the
		// password is removed when the update arrives, after the refresh.
		noRefresh bool
	}{
		{"apply without refresh", true},
		{"removed between refresh and apply", false},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			domain := fmt.Sprintf("tf-acc-pw-wo-unseen-%d.example.com", i+1)
			audit := &requestAudit{key: emulator.DefaultAPIKey}
			var (
				env      *acctest.Env
				removeAt atomic.Bool // remove the password when the next update arrives
			)
			removePassword := func() {
				w, ok := env.WebsiteByDomain(domain)
				if !ok {
					t.Errorf("the emulator has no website %s", domain)
					return
				}
				env.UpdateWebsite(w.ID, func(w *emulator.Website) { w.Password = "" })
			}
			env = acctest.New(t, acctest.Emulator(emulator.Options{}), acctest.Wrap(audit.wrap, func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.Method == http.MethodPut && removeAt.CompareAndSwap(true, false) {
						removePassword()
					}
					next.ServeHTTP(w, r)
				})
			}))
			cfg := func(extra string) string {
				return env.Config(websiteHCL(fmt.Sprintf(`
  domain              = %q
  privacy             = "password"
  password_wo         = %q
  password_wo_version = 1
%s`, domain, password, extra)))
			}
			var opts *resource.AdditionalCLIOptions
			if c.noRefresh {
				opts = &resource.AdditionalCLIOptions{Plan: resource.PlanOptions{NoRefresh: true}}
			}
			steps := []resource.TestStep{
				{Config: cfg(""), Check: checkStoredPassword(env, domain, password)},
				{
					PreConfig: func() {
						if c.noRefresh {
							removePassword()
						} else {
							removeAt.Store(true)
						}
					},
					Config: cfg("  email_reports = true\n"),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate),
							plancheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Int64Exact(1)),
						},
					},
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Int64Exact(1)),
					},
					Check: resource.ComposeTestCheckFunc(
						func(*terraform.State) error {
							if removeAt.Load() {
								return fmt.Errorf("no update reached the server")
							}
							return nil
						},
						checkStoredPassword(env, domain, password),
						audit.checkLastWrite(http.MethodPut, ptr(password)),
						env.CheckEmulator(domain, func(w emulator.Website) error { return intIs("email", w.Email, 1) }),
					),
				},
			}
			if !c.noRefresh {
				// Seen by a refresh, the removal shows in the plan as a
				// change of password_wo_version, and the apply repairs it.
				steps = append(steps, resource.TestStep{
					PreConfig: removePassword,
					Config:    cfg("  email_reports = true\n"),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(websiteAddr, plancheck.ResourceActionUpdate),
							plancheck.ExpectKnownValue(websiteAddr, tfjsonpath.New("password_wo_version"), knownvalue.Int64Exact(1)),
						},
					},
					Check: resource.ComposeTestCheckFunc(
						checkStoredPassword(env, domain, password),
						audit.checkLastWrite(http.MethodPut, ptr(password)),
					),
				})
			}
			env.TestCase(t, resource.TestCase{
				TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
				AdditionalCLIOptions:   opts,
				Steps:                  steps,
			})
			if !t.Failed() {
				audit.verify(t, env)
			}
		})
	}
}
