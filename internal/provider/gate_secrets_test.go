package provider

import (
	"encoding/base64"
	"strings"
	"testing"

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
