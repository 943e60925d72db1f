package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
)

// canonicalCases are inputs of canonical_domain with the domain it returns,
// or a pattern of its error ("!" prefix).
var canonicalCases = []struct{ in, want string }{
	{"example.com", "example.com"},
	{"https://www.Example.com/blog/", "example.com"},
	{"http://EXAMPLE.com", "example.com"},
	{"HTTPS://shop.example.com?utm_source=x#top", "shop.example.com"},
	{"  https://example.com/  \n", "example.com"},
	{"https://user:hunter2@www.example.com:8443/path", "example.com"},
	{"example.com.", "example.com"},
	{"https://example.com./", "example.com"},
	{"www.www.example.com", "example.com"},
	{"sub.www.example.com", "sub.www.example.com"},
	{"München.de", "xn--mnchen-3ya.de"},
	{"https://例え.jp/パス", "xn--r8jz45g.jp"},
	{"192.0.2.10:8080", "192.0.2.10"},
	{"", "!empty or only white space"},
	{"   ", "!empty or only white space"},
	{"ftp://example.com", `!URL scheme "ftp://"`},
	{"https://", "!no host name"},
	{"https://www.", "!not a valid host name"},
	{"https://[2001:db8::1]:8080/", "!IPv6 address"},
	{"2001:db8::1", "!IPv6 address"},
	{"localhost", "!not a valid host name"},
	{"exa mple.com", "!contains white space"},
	{"exa_mple.com", "!not a valid host name"},
	{"192.0.2.999", "!not a valid host name"},
	{strings.Repeat("x", 64) + ".com", "!at most 63 characters"},
}

func TestCanonicalDomainOf(t *testing.T) {
	t.Parallel()
	for _, tc := range canonicalCases {
		got, problem := canonicalDomainOf(tc.in)
		if want, isErr := strings.CutPrefix(tc.want, "!"); isErr {
			if got != "" || !strings.Contains(problem, want) {
				t.Errorf("canonicalDomainOf(%q) = %q, %q; want an error with %q", tc.in, got, problem, want)
			}
		} else if got != tc.want || problem != "" {
			t.Errorf("canonicalDomainOf(%q) = %q, %q; want %q", tc.in, got, problem, tc.want)
		}
		if strings.Contains(problem, "hunter2") {
			t.Errorf("canonicalDomainOf(%q) repeats the password: %q", tc.in, problem)
		}
	}
}

// TestCanonicalDomainFunction runs the function as a CLI calls it, without
// one: each case's result, or an error of its argument (position 0) with
// the case's text, without the full stop the CLI adds.
func TestCanonicalDomainFunction(t *testing.T) {
	t.Parallel()
	for _, tc := range canonicalCases {
		resp := &function.RunResponse{Result: function.NewResultData(types.StringUnknown())}
		canonicalDomainFunction{}.Run(t.Context(), function.RunRequest{
			Arguments: function.NewArgumentsData([]attr.Value{types.StringValue(tc.in)}),
		}, resp)
		if want, isErr := strings.CutPrefix(tc.want, "!"); isErr {
			if resp.Error == nil || resp.Error.FunctionArgument == nil || *resp.Error.FunctionArgument != 0 ||
				!regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(want), " ", `\s+`)).MatchString(resp.Error.Text) ||
				strings.HasSuffix(resp.Error.Text, ".") {
				t.Errorf("canonical_domain(%q): error %+v, want an error of argument 0 with %q and no full stop", tc.in, resp.Error, want)
			}
			continue
		}
		if resp.Error != nil || !resp.Result.Value().Equal(types.StringValue(tc.want)) {
			t.Errorf("canonical_domain(%q) = %v, %+v; want %q", tc.in, resp.Result.Value(), resp.Error, tc.want)
		}
	}
}

// The function and the validator are one set of rules: the function's
// result is accepted by the validator and is its own result, and a domain
// passes the validator exactly when the function returns it unchanged. The
// validator's suggestions are the function's results.
func TestCanonicalDomainMatchesValidator(t *testing.T) {
	t.Parallel()
	inputs := []string{"", " example.com", "EXAMPLE.com", "www.example.com", "https://", "user:pw@example.com",
		"example.com:80", "example.com/x", "-bad.example.com", "example.123", "a..example.com", "xn--mnchen-3ya.de",
		"192.0.2.1", "192.0.2.1.", "https://www.www.example.com", "www.", "ftp://www.Example.com/"}
	for _, tc := range canonicalCases {
		inputs = append(inputs, tc.in)
	}
	for _, in := range inputs {
		out, problem := canonicalDomainOf(in)
		accepted := domainProblem(in) == ""
		if accepted != (problem == "" && out == in) {
			t.Errorf("%q: validator accepts: %v, but canonical_domain gives %q, %q", in, accepted, out, problem)
		}
		if problem != "" {
			continue
		}
		if p := domainProblem(out); p != "" {
			t.Errorf("canonical_domain(%q) = %q, which the validator refuses: %s", in, out, p)
		}
		if again, p := canonicalDomainOf(out); again != out || p != "" {
			t.Errorf("canonical_domain(%q) = %q, but canonical_domain(%q) = %q, %q", in, out, out, again, p)
		}
		if !accepted && !strings.Contains(domainProblem(in), fmt.Sprintf("%q", out)) {
			t.Errorf("the validator's message for %q does not suggest %q: %s", in, out, domainProblem(in))
		}
	}
}

// TestAccFunction_canonicalDomain calls the function from a configuration on
// every CLI (Terraform 1.8 or later, OpenTofu 1.7 or later): its results,
// one of its errors, and a website whose domain it computed, which applies
// and then plans empty. Each error's text is the provider's (the function
// returns it as an error of its argument, which every CLI shows as this
// one): TestCanonicalDomainFunction checks every error without a CLI.
func TestAccFunction_canonicalDomain(t *testing.T) {
	acctest.CLIDependent(t, "provider-defined functions: Terraform 1.8, OpenTofu 1.7")
	env := acctest.New(t)
	// The website's domain, written as a user might paste a URL.
	name := strings.TrimSuffix(env.Domain("function"), ".example.com")
	fromURL := "https://www." + strings.ToUpper(name) + ".Example.com/landing?utm_source=x"
	var outputs strings.Builder
	checks := []statecheck.StateCheck{}
	for i, tc := range canonicalCases {
		if strings.HasPrefix(tc.want, "!") {
			continue
		}
		fmt.Fprintf(&outputs, "output \"c%d\" {\n  value = provider::analytics::canonical_domain(%q)\n}\n", i, tc.in)
		checks = append(checks, statecheck.ExpectKnownOutputValue(fmt.Sprintf("c%d", i), knownvalue.StringExact(tc.want)))
	}
	steps := []resource.TestStep{{
		Config: env.Config(outputs.String(), fmt.Sprintf(`
resource "analytics_website" "from_url" {
  domain = provider::analytics::canonical_domain(%q)
}
`, fromURL)),
		ConfigStateChecks: append(checks,
			statecheck.ExpectKnownValue("analytics_website.from_url", tfjsonpath.New("domain"), knownvalue.StringExact(name+".example.com"))),
	}}
	for _, tc := range canonicalCases {
		if want, isErr := strings.CutPrefix(tc.want, "!"); isErr {
			steps = append(steps, resource.TestStep{
				Config:      env.Config(fmt.Sprintf("output \"bad\" {\n  value = provider::analytics::canonical_domain(%q)\n}\n", tc.in)),
				ExpectError: regexp.MustCompile(`(?s)canonical_domain.*` + strings.ReplaceAll(regexp.QuoteMeta(want), " ", `\s+`)),
			})
			break // the others: TestCanonicalDomainFunction
		}
	}
	// The post-test destroy runs the last configuration: a valid one.
	steps = append(steps, resource.TestStep{Config: env.Config(`
output "ok" {
  value = provider::analytics::canonical_domain("WWW.example.org")
}
`), ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("ok", knownvalue.StringExact("example.org"))}})
	env.TestCase(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps:                  steps,
	})
}
