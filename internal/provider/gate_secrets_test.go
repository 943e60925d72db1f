package provider

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// TestAddURLSecrets_asSent: the user information of a URL is sent
// percent-decoded, and to a proxy as Basic credentials (Go's transport
// writes Proxy-Authorization: Basic base64(user:password) for an http://
// request through HTTP_PROXY=http://user:password@proxy): a debugging
// proxy or the server behind it that echoes the request repeats it so.
func TestAddURLSecrets_asSent(t *testing.T) {
	t.Parallel()
	addURLSecrets("http://pr%40xy-user:Pw%2F%40Zx7Cv5Bn@proxy.example.com:3128")
	basic := base64.StdEncoding.EncodeToString([]byte("pr@xy-user:Pw/@Zx7Cv5Bn"))
	for name, text := range map[string]string{
		"decoded password":  "password Pw/@Zx7Cv5Bn refused",
		"Basic credentials": "echo: Proxy-Authorization: Basic " + basic + "\n",
	} {
		got := redact.String(text)
		if strings.Contains(got, "Zx7Cv5Bn") || strings.Contains(got, basic) {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// TestLearnEnvironment_storeCredentials: the export's object store reads
// its credentials from the environment (AWS_SECRET_ACCESS_KEY or
// AWS_SECRET_KEY, AWS_SESSION_TOKEN, which the SDK sends as X-Amz-Security-Token): a store
// that echoes a request in its error message (which the export's
// diagnostics quote) repeats them.
func TestLearnEnvironment_storeCredentials(t *testing.T) {
	secrets := map[string]string{
		"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY",
		"AWS_SESSION_TOKEN":     "IQoJb3JpZ2luX2VjEXAMPLE+SESSIONTOKEN/Qw8",
		"AWS_SECURITY_TOKEN":    "OldSecurityTokenEXAMPLE=Zp3",
		// read as the secret access key when AWS_SECRET_ACCESS_KEY is unset
		"AWS_SECRET_KEY": "LegacySecretKeyEXAMPLE/Hq5Tm8Wd",
		// sent as the Authorization header to a container's credentials
		// endpoint
		"AWS_CONTAINER_AUTHORIZATION_TOKEN": "Basic Y29udGFpbmVyLXRva2Vu-Kw4Er7",
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

// TestResolveNetwork_keyFileIsSecret: the client key read from key_file
// (or ANALYTICS_KEY_FILE) is a secret the gate cannot learn from the
// request (it holds the file's name only): it is registered where it is
// read, every line of it, as key_pem's value is.
func TestResolveNetwork_keyFileIsSecret(t *testing.T) {
	t.Parallel()
	line := "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Vt5Fz3Kd9Qp"
	name := filepath.Join(t.TempDir(), "client.key")
	if err := os.WriteFile(name, []byte("-----BEGIN PRIVATE KEY-----\n"+line+"\n-----END PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	resolveNetwork(providerModel{KeyFile: types.StringValue(name)}, os.Getenv, &diags)
	if got := redact.String("key: " + line + "\n"); strings.Contains(got, "7Vt5Fz3Kd9Qp") {
		t.Errorf("the key file's content was not registered: %q", got)
	}
	// Its armor is no secret, and messages name it.
	if msg := "expected a -----BEGIN PRIVATE KEY----- block"; redact.String(msg) != msg {
		t.Errorf("the PEM armor was taken for a secret: %q", redact.String(msg))
	}
}

// TestLearnEnvironment_credentialNameCase: on Windows, a release
// target, environment variable names are case-insensitive, and the AWS SDK
// reads AWS_SECRET_KEY with os.LookupEnv, which finds aws_secret_key or
// Aws_Secret_Key (PowerShell's $env:aws_secret_key = "..." keeps the case
// typed). learnEnvironment compares names exactly, so such a credential is
// read by the export yet never registered with the redactor. Registering
// the value of a variable whatever the case of its name is harmless where
// names are case-sensitive.
func TestLearnEnvironment_credentialNameCase(t *testing.T) {
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

// TestLearnEnvironment_containerTokenFile: the gate registers
// AWS_CONTAINER_AUTHORIZATION_TOKEN because the SDK sends it as the
// Authorization header to a container's credentials endpoint, which may
// echo it. EKS Pod Identity gives the same token as a file instead
// (AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE), which the SDK reads and sends
// the same way; its content is never registered.
func TestLearnEnvironment_containerTokenFile(t *testing.T) {
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
