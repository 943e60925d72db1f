package provider

import (
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// TestLearnEnvironment_review41CredentialNameCase: on Windows, a release
// target, environment variable names are case-insensitive, and the AWS SDK
// reads AWS_SECRET_KEY with os.LookupEnv, which finds aws_secret_key or
// Aws_Secret_Key (PowerShell's $env:aws_secret_key = "..." keeps the case
// typed). learnEnvironment compares names exactly, so such a credential is
// read by the export yet never registered with the redactor. Registering
// the value of a variable whatever the case of its name is harmless where
// names are case-sensitive.
func TestLearnEnvironment_review41CredentialNameCase(t *testing.T) {
	secrets := map[string]string{
		"aws_secret_key":        "LowerCaseLegacySecretEXAMPLE/Zq7Rw",
		"Aws_Secret_Access_Key": "MixedCaseSecretKeyEXAMPLE/Yp4Tn2Ka",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	newSchemaSecrets(&fakeServer{})
	for k, v := range secrets {
		if got := redact.String("AccessDenied: the request held " + v + "."); strings.Contains(got, v[len(v)-10:]) {
			t.Errorf("%s was not learned: %q", k, got)
		}
	}
}
