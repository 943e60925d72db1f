package provider

import (
	"os"
	"path/filepath"
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

// TestLearnEnvironment_review41ContainerTokenFile: the gate registers
// AWS_CONTAINER_AUTHORIZATION_TOKEN because the SDK sends it as the
// Authorization header to a container's credentials endpoint, which may
// echo it. EKS Pod Identity gives the same token as a file instead
// (AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE), which the SDK reads and sends
// the same way; its content is never registered.
func TestLearnEnvironment_review41ContainerTokenFile(t *testing.T) {
	const token = "eyJhbGciOiJSUzI1NiJ9.PodIdentityTokenEXAMPLE.Sig-Qx7Lm3"
	name := filepath.Join(t.TempDir(), "eks-pod-identity-token")
	if err := os.WriteFile(name, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", name)
	newSchemaSecrets(&fakeServer{})
	if got := redact.String("403 from the credentials endpoint: Authorization: " + token); strings.Contains(got, "Sig-Qx7Lm3") {
		t.Errorf("the container authorization token file's content was not learned: %q", got)
	}
}
