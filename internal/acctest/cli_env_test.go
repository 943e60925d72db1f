package acctest

import (
	"slices"
	"testing"
)

// TestCLIEnviron: the CLI-driven tests talk to the provider without TLS
// against the in-process emulators only; the live mode keeps the TLS that
// users run.
func TestCLIEnviron(t *testing.T) {
	for _, tc := range []struct {
		name    string
		baseURL string
		wantTLS bool
	}{
		{"emulator", "", false},
		{"live mode", "https://analytics.example.com", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvBaseURL, tc.baseURL)
			env := CLIEnviron("/cli.tfrc")
			for _, kv := range []string{"TF_CLI_CONFIG_FILE=/cli.tfrc", "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"} {
				if !slices.Contains(env, kv) {
					t.Errorf("the CLI's environment lacks %s", kv)
				}
			}
			if tls := !slices.Contains(env, "TF_DISABLE_PLUGIN_TLS=1"); tls != tc.wantTLS {
				t.Errorf("TLS between the CLI and the provider: %t, want %t", tls, tc.wantTLS)
			}
		})
	}
}
