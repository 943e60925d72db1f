package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// The network path: TLS and extra headers. The settings are named as in
// HashiCorp's own providers of self-hosted servers (nomad, consul); each
// has an environment variable ANALYTICS_<ATTRIBUTE>.
const (
	EnvCAFile     = "ANALYTICS_CA_FILE"
	EnvCAPEM      = "ANALYTICS_CA_PEM"
	EnvCertFile   = "ANALYTICS_CERT_FILE"
	EnvCertPEM    = "ANALYTICS_CERT_PEM"
	EnvKeyFile    = "ANALYTICS_KEY_FILE"
	EnvKeyPEM     = "ANALYTICS_KEY_PEM"
	EnvSkipVerify = "ANALYTICS_SKIP_VERIFY"
	EnvHeaders    = "ANALYTICS_HEADERS"
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

// networkAttributes are the provider's TLS and header attributes. The file
// and PEM forms of one input conflict (ConflictsWith). "A certificate needs
// its key" is not an AlsoRequires: either may come from the environment,
// so resolveNetwork checks it once both sources are known.
func networkAttributes() map[string]schema.Attribute {
	fileAttr := func(s pemSetting, desc string) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: desc + " Conflicts with `" + s.pemAttr + "`. Defaults to the `" + s.fileEnv + "` environment " +
				"variable (used only when neither `" + s.fileAttr + "` nor `" + s.pemAttr + "` is set). Not sent to the API.",
			Optional: true,
			Validators: []validator.String{
				stringvalidator.LengthAtLeast(1),
				stringvalidator.ConflictsWith(path.MatchRoot(s.pemAttr)),
			},
		}
	}
	pemAttr := func(s pemSetting, desc, summary string, check func(string) error, sensitive bool) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: desc + " Conflicts with `" + s.fileAttr + "`. Defaults to the `" + s.pemEnv + "` environment " +
				"variable (used only when neither `" + s.fileAttr + "` nor `" + s.pemAttr + "` is set). Not sent to the API.",
			Optional:   true,
			Sensitive:  sensitive,
			Validators: []validator.String{pemValidator(s.pemAttr, summary, check)},
		}
	}
	return map[string]schema.Attribute{
		"ca_file": fileAttr(caSetting, "Path of a PEM file of one or more CA certificates that sign the installation's "+
			"certificate (a private or corporate CA). They are trusted in addition to the system's roots."),
		"ca_pem": pemAttr(caSetting, "PEM text of one or more CA certificates, as `ca_file` holds them (e.g. "+
			"`file(\"ca.pem\")`).", "Invalid CA Certificate", func(s string) error { _, err := client.ParseCABundle([]byte(s)); return err }, false),
		"cert_file": fileAttr(certSetting, "Path of a PEM client certificate (optionally followed by its intermediates), "+
			"for an installation or proxy that requires mutual TLS. Needs `key_file` or `key_pem`."),
		"cert_pem": pemAttr(certSetting, "PEM text of the client certificate, as `cert_file` holds it. Needs `key_file` "+
			"or `key_pem`.", "Invalid Client Certificate", client.CheckCertificatePEM, false),
		"key_file": fileAttr(keySetting, "Path of the PEM private key of the client certificate (unencrypted: PKCS #8, "+
			"PKCS #1 or SEC 1). Needs `cert_file` or `cert_pem`."),
		"key_pem": pemAttr(keySetting, "PEM text of the client certificate's private key, as `key_file` holds it. "+
			"Sensitive, never logged. Needs `cert_file` or `cert_pem`.", "Invalid Client Key", client.CheckKeyPEM, true),
		"skip_verify": schema.BoolAttribute{
			MarkdownDescription: "Accept any server certificate, without checking who signed it, its host name or its dates. " +
				"Anyone on the network path can then read the API key, so every run warns; give the CA in `ca_file` or " +
				"`ca_pem` instead. Defaults to the `" + EnvSkipVerify + "` environment variable (`true` or `false`), else `false`.",
			Optional: true,
		},
		"headers": schema.MapAttribute{
			MarkdownDescription: "Extra HTTP headers sent with every request, e.g. the service token of an access proxy in " +
				"front of the installation (`CF-Access-Client-Id`, `CF-Access-Client-Secret`). Sensitive: values are " +
				"never logged. Headers the provider sets itself (`Authorization`, `Accept`, `Content-Type`, `User-Agent`), " +
				"`Host`, `Proxy-Authorization` and those Go's HTTP transport manages are refused. Defaults to the `" +
				EnvHeaders + "` environment variable, a JSON object of names to values such as " +
				"`{\"CF-Access-Client-Id\":\"...\"}`, used only when `headers` is not set.",
			Optional:    true,
			Sensitive:   true,
			ElementType: types.StringType,
			Validators:  []validator.Map{headersValidator()},
		},
	}
}

// networkSettingsUnknown reports whether a network setting is unknown at
// plan time.
func networkSettingsUnknown(cfg providerModel) bool {
	for _, v := range []types.String{cfg.CAFile, cfg.CAPEM, cfg.CertFile, cfg.CertPEM, cfg.KeyFile, cfg.KeyPEM} {
		if v.IsUnknown() {
			return true
		}
	}
	if cfg.SkipVerify.IsUnknown() || cfg.Headers.IsUnknown() {
		return true
	}
	for _, e := range cfg.Headers.Elements() {
		if e.IsUnknown() {
			return true
		}
	}
	return false
}

// networkSettings is what Configure hands to the client, and a description
// of it for the log (sources, never contents).
type networkSettings struct {
	tls     *client.TLS
	headers map[string]string
	log     map[string]any
}

// resolveNetwork turns the TLS and header settings, from the provider
// block or the environment, into client options, checking them: a file
// that cannot be read, PEM that does not parse, a certificate without its
// key or one that does not match it fail here, at plan time, naming the
// setting and its environment variable.
func resolveNetwork(cfg providerModel, diags *diag.Diagnostics) networkSettings {
	ns := networkSettings{log: map[string]any{}}
	tlsOpts := &client.TLS{}
	ca, caSrc := resolvePEM(cfg.CAFile, cfg.CAPEM, caSetting, diags)
	cert, certSrc := resolvePEM(cfg.CertFile, cfg.CertPEM, certSetting, diags)
	key, keySrc := resolvePEM(cfg.KeyFile, cfg.KeyPEM, keySetting, diags)
	ns.headers = resolveHeaders(cfg.Headers, diags)
	skip := resolveSkipVerify(cfg.SkipVerify, diags)
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
		names := make([]string, 0, len(ns.headers))
		for k := range ns.headers {
			names = append(names, k)
		}
		sort.Strings(names)
		ns.log["headers"] = strings.Join(names, ", ") // names only, never values
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
func resolvePEM(file, text types.String, s pemSetting, diags *diag.Diagnostics) ([]byte, settingSource) {
	switch {
	case !file.IsNull():
		src := settingSource{name: fmt.Sprintf("%s %q", s.fileAttr, file.ValueString()), path: path.Root(s.fileAttr)}
		return readPEMFile(file.ValueString(), src, s, diags), src
	case !text.IsNull():
		return []byte(text.ValueString()), settingSource{name: s.pemAttr, path: path.Root(s.pemAttr)}
	}
	envFile, envText := os.Getenv(s.fileEnv), os.Getenv(s.pemEnv)
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
		diags.AddAttributeError(src.path, "Unreadable "+titleCase(s.what)+" File",
			fmt.Sprintf("Could not read the %s named by %s: %s. Set %s to a readable PEM file, or give the PEM text in %s "+
				"(or %s).", s.what, src.name, pathErrorReason(err), s.fileAttr, s.pemAttr, s.pemEnv))
		return nil
	}
	if len(data) == 0 {
		diags.AddAttributeError(src.path, "Empty "+titleCase(s.what)+" File",
			fmt.Sprintf("The %s file named by %s is empty. Point it at the PEM file.", s.what, src.name))
		return nil
	}
	return data
}

func pathErrorReason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if w == "CA" {
			continue
		}
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// addClientCertError reports a client certificate or key that does not
// parse or a pair that does not belong together.
func addClientCertError(diags *diag.Diagnostics, err error, certSrc, keySrc settingSource) {
	var ce *client.TLSConfigError
	part := client.TLSPartClientPair
	if errors.As(err, &ce) {
		part = ce.Part
		err = ce.Err
	}
	switch part {
	case client.TLSPartClientCert:
		diags.AddAttributeError(certSrc.path, "Invalid Client Certificate",
			fmt.Sprintf("The client certificate in %s is not usable: %s. Give a PEM certificate in %s.", certSrc.name, err, certSetting.names()))
	case client.TLSPartClientKey:
		diags.AddAttributeError(keySrc.path, "Invalid Client Key",
			fmt.Sprintf("The private key in %s is not usable: %s. Give the certificate's unencrypted PEM private key in %s.",
				keySrc.name, err, keySetting.names()))
	default:
		diags.AddAttributeError(keySrc.path, "Client Certificate and Key Do Not Match",
			fmt.Sprintf("The private key in %s does not belong to the certificate in %s (%s). Give the key that was "+
				"issued with the certificate.", keySrc.name, certSrc.name, err))
	}
}

// resolveSkipVerify reads skip_verify, else ANALYTICS_SKIP_VERIFY.
func resolveSkipVerify(v types.Bool, diags *diag.Diagnostics) bool {
	if !v.IsNull() {
		return v.ValueBool()
	}
	return envBool(EnvSkipVerify, "skip_verify", diags)
}

// resolveHeaders reads headers, else ANALYTICS_HEADERS (a JSON object),
// and checks them as the attribute's validator does.
func resolveHeaders(v types.Map, diags *diag.Diagnostics) map[string]string {
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
	case os.Getenv(EnvHeaders) != "":
		name = "the " + EnvHeaders + " environment variable"
		if err := json.Unmarshal([]byte(os.Getenv(EnvHeaders)), &hs); err != nil {
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
	keys := make([]string, 0, len(hs))
	for k := range hs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	seen := map[string]string{}
	for _, k := range keys {
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

// logFields adds the network settings' description to the configure log
// line.
func (ns networkSettings) logFields(fields map[string]any) map[string]any {
	for k, v := range ns.log {
		fields[k] = v
	}
	return fields
}
