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
	resolveNetwork(providerModel{KeyFile: types.StringValue(name)}, &diags)
	if got := redact.String("key: " + line + "\n"); strings.Contains(got, "7Vt5Fz3Kd9Qp") {
		t.Errorf("the key file's content was not registered: %q", got)
	}
	// Its armor is no secret, and messages name it.
	if msg := "expected a -----BEGIN PRIVATE KEY----- block"; redact.String(msg) != msg {
		t.Errorf("the PEM armor was taken for a secret: %q", redact.String(msg))
	}
}
