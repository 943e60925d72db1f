package provider

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The fuzz targets of the provider block's other inputs: headers (and
// ANALYTICS_HEADERS), the PEM texts and the durations; and of the
// website's password.

// FuzzHeaders: headers in the provider block (headersCheck) and
// ANALYTICS_HEADERS (resolveHeaders), the value a secret the fuzzer draws
// (value followed by core), and core the value of a second header. No
// panic; no diagnostic (after the gate: headers is sensitive) and no log
// line holds a piece of the value in any form, nor does any message about
// ANALYTICS_HEADERS (as written: no gate knows that variable's values
// before they are parsed); a refusal is an error on headers
// (or on one of its keys) that names headers or the variable; accepted
// headers are the ones the client sends (CheckHeader, case-insensitively
// unique).
func FuzzHeaders(f *testing.F) {
	for _, p := range [][3]string{{"CF-Access-Client-Id", "id", "x"}, {"Authorization", "Bearer ", ""}, {"X-A", "", ""},
		{"x a", "v", ""}, {"X-A", "a\nb", ""}, {"x-token", "t", "X-Token"}, {"", "v", ""}, {"Host", "h", ""}} {
		f.Add(p[0], p[1], p[2], fuzzSecret)
	}
	f.Add("X-Token", "tok ", "X-Other", `/+="\<&?# x`)
	f.Fuzz(func(t *testing.T, name, value, other, core string) {
		secret := value + core
		hs := map[string]string{name: secret}
		if other != name {
			hs[other] = core
		}
		block := secretCheck{secret: secret, registered: true, clean: []string{name, other}, others: []string{core}}
		fromEnv := []secretCheck{{secret: secret, clean: []string{name, other}}, {secret: core, clean: []string{name, other}}}
		second := secretCheck{secret: core, registered: true, clean: []string{name, other}, others: []string{secret}}
		elems := map[string]attr.Value{}
		for k, v := range hs {
			elems[k] = types.StringValue(v)
		}
		resp := &validator.MapResponse{}
		ctx, logs := logContext()
		headersCheck{}.ValidateMap(ctx, validator.MapRequest{
			Path: path.Root("headers"), ConfigValue: types.MapValueMust(types.StringType, elems),
		}, resp)
		block.check(t, name, resp.Diagnostics, logs.String())
		second.check(t, other, resp.Diagnostics, logs.String())
		for _, d := range resp.Diagnostics {
			if !strings.Contains(d.Detail(), "headers") {
				t.Errorf("%q: the message does not name headers: %s", name, d.Detail())
			}
		}
		if !resp.Diagnostics.HasError() {
			for k, v := range hs {
				if err := client.CheckHeader(k, v); err != nil {
					t.Errorf("%q: accepted, but the client refuses it: %v", k, err)
				}
			}
		}
		env, err := json.Marshal(hs)
		if err != nil {
			t.Skip("not valid UTF-8")
		}
		for _, raw := range []string{string(env), string(env[:len(env)/2]), name + ":" + secret} {
			if strings.ContainsRune(raw, 0) {
				continue // no environment variable holds a NUL
			}
			t.Setenv(EnvHeaders, raw)
			var diags diag.Diagnostics
			resolveHeaders(types.MapNull(types.StringType), os.Getenv, &diags)
			for _, c := range fromEnv {
				c.check(t, raw, diags, "")
			}
			for _, d := range diags {
				if !strings.Contains(d.Detail(), EnvHeaders) {
					t.Errorf("%q: the message does not name %s: %s", raw, EnvHeaders, d.Detail())
				}
			}
		}
	})
}

// FuzzPEM: ca_pem, cert_pem and key_pem (pemValidator with the client's
// checks), a secret the fuzzer draws (core) in the text, in a block's
// headers and in its body. No panic; a refusal is an error naming the
// attribute; no diagnostic (after the gate for key_pem, which is
// sensitive; as written for the others) and no log line holds a piece of
// the secret in any form.
func FuzzPEM(f *testing.F) {
	for _, p := range [][2]string{{"CERTIFICATE", "MIIB"}, {"PRIVATE KEY", "MC4CAQAwBQYDK2VwBCIEI"}, {"RSA PRIVATE KEY", "AAAA"},
		{"EC PRIVATE KEY", ""}, {"ENCRYPTED PRIVATE KEY", "AAAA"}, {"", ""}} {
		f.Add(p[0], p[1], "", fuzzSecret)
	}
	checks := map[string]func(string) error{
		"ca_pem":   func(s string) error { _, err := client.ParseCABundle([]byte(s)); return err },
		"cert_pem": client.CheckCertificatePEM,
		"key_pem":  client.CheckKeyPEM,
	}
	f.Fuzz(func(t *testing.T, typ, body, text, core string) {
		pem := text + core + "\n-----BEGIN " + typ + "-----\nSecret: " + core + "\n\n" + body + core +
			"\n-----END " + typ + "-----\n"
		for name, check := range checks {
			at := path.Root(name)
			diags, logs := validateStringLogged(pemValidator(name, "Invalid PEM", check), at, pem)
			// The block's type may be quoted: a secret that shares a piece
			// with it is not checked.
			secretCheck{secret: core, registered: name == "key_pem", clean: []string{typ}}.check(t, pem, diags, logs)
			checkRefusals(t, diags, at, pem)
		}
	})
}

// FuzzDuration: the provider's timeout and the export's (durationValidator),
// which the configuration pass applies again to a timeout unknown at plan
// time (positiveDuration). No panic; a refusal is an error naming the
// attribute; the validator and positiveDuration agree, and an accepted
// value is the positive duration positiveDuration returns, which prints
// and reads back the same.
func FuzzDuration(f *testing.F) {
	for _, s := range []string{"30s", "2m", "1h30m", "0", "0s", "-1s", "1.5h", "10", "9999999999h", "1µs", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		at := path.Root("timeout")
		diags := validateString(durationValidator(), at, in)
		checkRefusals(t, diags, at, in)
		if diags.HasError() {
			if _, p := positiveDuration(at, in); p == "" {
				t.Errorf("timeout %q is refused by the validator, but positiveDuration accepts it", in)
			}
			return
		}
		d, err := time.ParseDuration(in)
		if err != nil || d <= 0 {
			t.Fatalf("timeout %q is accepted: %v, %v", in, d, err)
		}
		if got, p := positiveDuration(at, in); p != "" || got != d {
			t.Errorf("timeout %q is accepted by the validator, but positiveDuration gives %v, %q", in, got, p)
		}
		if again, err := time.ParseDuration(d.String()); err != nil || again != d {
			t.Errorf("timeout %q = %v does not round-trip: %v, %v", in, d, again, err)
		}
	})
}

// FuzzWebsitePassword: password and password_wo (passwordValidator), the
// password drawn by the fuzzer (before, core and after). No panic; a
// refusal is an error naming the attribute; no diagnostic (after the gate:
// both are sensitive) and no log line holds a piece of the password in any
// form.
func FuzzWebsitePassword(f *testing.F) {
	for _, s := range []string{"", " ", "0", "hunter2", strings.Repeat("x", 129), strings.Repeat("é", 128)} {
		f.Add(s, "", fuzzSecret)
	}
	f.Add(" ", " ", `pw/+="\<&?#`)
	f.Fuzz(func(t *testing.T, before, after, core string) {
		pw := before + core + after
		for _, name := range []string{"password", "password_wo"} {
			at := path.Root(name)
			diags, logs := validateStringLogged(passwordValidator(), at, pw)
			secretCheck{secret: pw, registered: true}.check(t, pw, diags, logs)
			checkRefusals(t, diags, at, pw)
		}
	})
}
