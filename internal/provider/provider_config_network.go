package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// pemSetting is a PEM input given either as a file or as text: ca, cert or
// key.
type pemSetting struct {
	what              string // "CA bundle", ...
	fileAttr, pemAttr string
	fileEnv, pemEnv   string
}

var (
	caSetting   = pemSetting{"CA bundle", "ca_file", "ca_pem", EnvCAFile, EnvCAPEM}
	certSetting = pemSetting{"client certificate", "cert_file", "cert_pem", EnvCertFile, EnvCertPEM}
	keySetting  = pemSetting{"client key", "key_file", "key_pem", EnvKeyFile, EnvKeyPEM}
)

// names is how messages refer to the setting: both attributes and both
// environment variables.
func (s pemSetting) names() string {
	return fmt.Sprintf("%s or %s (or the %s or %s environment variable)", s.fileAttr, s.pemAttr, s.fileEnv, s.pemEnv)
}

// networkSettings are the client's TLS and header Options, and a
// description of them for the log (sources, never contents).
type networkSettings struct {
	tls     *client.TLS
	headers map[string]string
	log     map[string]any
}

// resolveNetwork is the network part of the configuration pass
// (resolveProviderData): it turns the TLS and header settings, from the
// provider block or the environment, into the client's Options.TLS and
// Options.Headers, checking them: a file that cannot be read, PEM that does
// not parse, a certificate without its key or one that does not match it
// fail here, at plan time, naming the setting and its environment variable.
// ("A certificate needs its key" is no AlsoRequires in the schema: either
// may come from the environment.)
func resolveNetwork(cfg providerModel, getenv func(string) string, diags *diag.Diagnostics) networkSettings {
	ns := networkSettings{log: map[string]any{}}
	tlsOpts := &client.TLS{}
	ca, caSrc := resolvePEM(cfg.CAFile, cfg.CAPEM, caSetting, getenv, diags)
	cert, certSrc := resolvePEM(cfg.CertFile, cfg.CertPEM, certSetting, getenv, diags)
	key, keySrc := resolvePEM(cfg.KeyFile, cfg.KeyPEM, keySetting, getenv, diags)
	// The gate learns key_pem from the request; a key read from a file it
	// cannot: registered here, where it is read.
	addSecret(string(key))
	ns.headers = resolveHeaders(cfg.Headers, getenv, diags)
	skip := resolveBool(cfg.SkipVerify, EnvSkipVerify, "skip_verify", getenv, diags)
	if diags.HasError() {
		return ns
	}
	if ca != nil {
		if _, err := client.ParseCABundle(ca); err != nil {
			diags.AddAttributeError(caSrc.path, "Invalid CA Certificate",
				fmt.Sprintf("The CA bundle in %s is not usable: %s. Give one or more PEM certificates "+
					"(-----BEGIN CERTIFICATE----- blocks) in %s.", caSrc.name, err, caSetting.names()))
		}
		tlsOpts.CAPEM = ca
		ns.log["tls_ca"] = caSrc.name
	}
	switch {
	case cert != nil && key == nil:
		diags.AddAttributeError(certSrc.path, "Client Certificate Without Key",
			fmt.Sprintf("A client certificate is set (%s) but not its private key. Set %s too, or remove the certificate.",
				certSrc.name, keySetting.names()))
	case key != nil && cert == nil:
		diags.AddAttributeError(keySrc.path, "Client Key Without Certificate",
			fmt.Sprintf("A client key is set (%s) but not its certificate. Set %s too, or remove the key.",
				keySrc.name, certSetting.names()))
	case cert != nil:
		if _, err := client.ClientCertificate(cert, key); err != nil {
			addClientCertError(diags, err, certSrc, keySrc)
		}
		tlsOpts.CertPEM, tlsOpts.KeyPEM = cert, key
		ns.log["tls_client_certificate"] = certSrc.name
		ns.log["tls_client_key"] = keySrc.name
	}
	if skip {
		tlsOpts.InsecureSkipVerify = true
		ns.log["skip_verify"] = true
		diags.AddAttributeWarning(path.Root("skip_verify"), "TLS Certificate Verification Disabled",
			"skip_verify (or "+EnvSkipVerify+") is true, so the provider accepts any certificate for base_url: anyone on the "+
				"network path can pose as the installation and read the API key and website passwords. Give the "+
				"installation's CA in ca_file or ca_pem (or "+EnvCAFile+" / "+EnvCAPEM+") and remove skip_verify.")
	}
	if len(ns.headers) > 0 {
		ns.log["headers"] = strings.Join(slices.Sorted(maps.Keys(ns.headers)), ", ") // names only, never values
	}
	if tlsOpts.CAPEM != nil || tlsOpts.CertPEM != nil || tlsOpts.InsecureSkipVerify {
		ns.tls = tlsOpts
	}
	return ns
}

// settingSource says where a value came from, for messages and logs (never
// its contents).
type settingSource struct {
	name string    // e.g. `ca_file "/etc/ssl/ca.pem"` or "the ANALYTICS_CA_PEM environment variable"
	path path.Path // the attribute a diagnostic is attached to
}

// resolvePEM reads one PEM setting: the provider block's file or text, else
// the environment's. A file that cannot be read is an error naming it.
func resolvePEM(file, text types.String, s pemSetting, getenv func(string) string, diags *diag.Diagnostics) ([]byte, settingSource) {
	switch {
	case !file.IsNull():
		src := settingSource{name: fmt.Sprintf("%s %q", s.fileAttr, file.ValueString()), path: path.Root(s.fileAttr)}
		return readPEMFile(file.ValueString(), src, s, diags), src
	case !text.IsNull():
		return []byte(text.ValueString()), settingSource{name: s.pemAttr, path: path.Root(s.pemAttr)}
	}
	envFile, envText := getenv(s.fileEnv), getenv(s.pemEnv)
	switch {
	case envFile != "" && envText != "":
		diags.AddAttributeError(path.Root(s.fileAttr), "Conflicting "+titleCase(s.what)+" Settings",
			fmt.Sprintf("Both the %s and the %s environment variables are set, and it is not clear which %s to use. "+
				"Unset one of them (or set %s or %s in the provider block, which takes precedence over both).",
				s.fileEnv, s.pemEnv, s.what, s.fileAttr, s.pemAttr))
		return nil, settingSource{}
	case envFile != "":
		src := settingSource{name: fmt.Sprintf("the %s environment variable (%q)", s.fileEnv, envFile), path: path.Root(s.fileAttr)}
		return readPEMFile(envFile, src, s, diags), src
	case envText != "":
		return []byte(envText), settingSource{name: "the " + s.pemEnv + " environment variable", path: path.Root(s.pemAttr)}
	}
	return nil, settingSource{}
}

func readPEMFile(name string, src settingSource, s pemSetting, diags *diag.Diagnostics) []byte {
	data, err := os.ReadFile(name) //nolint:gosec // the user names the file on purpose
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		diags.AddAttributeError(src.path, "Unreadable "+titleCase(s.what)+" File",
			fmt.Sprintf("Could not read the %s named by %s: %s. Set %s to a readable PEM file, or give the PEM text in %s "+
				"(or %s).", s.what, src.name, err, s.fileAttr, s.pemAttr, s.pemEnv))
		return nil
	}
	if len(data) == 0 {
		diags.AddAttributeError(src.path, "Empty "+titleCase(s.what)+" File",
			fmt.Sprintf("The %s file named by %s is empty. Point it at the PEM file.", s.what, src.name))
		return nil
	}
	return data
}

func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if w != "CA" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}

// resolveHeaders reads headers, else ANALYTICS_HEADERS (a JSON object),
// and checks them as the attribute's validator does.
func resolveHeaders(v types.Map, getenv func(string) string, diags *diag.Diagnostics) map[string]string {
	hs := map[string]string{}
	name := "headers"
	switch {
	case !v.IsNull():
		for k, e := range v.Elements() {
			s, ok := e.(types.String)
			if !ok || s.IsNull() {
				diags.AddAttributeError(path.Root("headers").AtMapKey(k), "Invalid Header",
					fmt.Sprintf("The header %q has no value. Give it one, or remove it.", k))
				continue
			}
			hs[k] = s.ValueString()
		}
	case getenv(EnvHeaders) != "":
		name = "the " + EnvHeaders + " environment variable"
		if err := json.Unmarshal([]byte(getenv(EnvHeaders)), &hs); err != nil {
			// The JSON error could quote part of a secret: say where, not what.
			where := ""
			var se *json.SyntaxError
			if errors.As(err, &se) {
				where = fmt.Sprintf(" (at byte %d)", se.Offset)
			}
			diags.AddAttributeError(path.Root("headers"), "Invalid "+EnvHeaders,
				fmt.Sprintf("The %s environment variable is not a JSON object of header names to string values%s. "+
					"Set it like {\"CF-Access-Client-Id\": \"...\", \"CF-Access-Client-Secret\": \"...\"}, or unset it.", EnvHeaders, where))
			return nil
		}
	default:
		return nil
	}
	seen := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(hs)) {
		if err := client.CheckHeader(k, hs[k]); err != nil {
			diags.AddAttributeError(path.Root("headers").AtMapKey(k), "Invalid Header", fmt.Sprintf("In %s: %s.", name, err))
			continue
		}
		canon := strings.ToLower(k)
		if prev, dup := seen[canon]; dup {
			diags.AddAttributeError(path.Root("headers").AtMapKey(k), "Invalid Header",
				fmt.Sprintf("In %s: %q and %q are the same header (names are case-insensitive); keep one.", name, prev, k))
		}
		seen[canon] = k
	}
	return hs
}
