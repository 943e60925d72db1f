package client

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// reservedHeaders are the headers Options.Headers may not set, and why.
var reservedHeaders = map[string]string{
	"Authorization": "the provider sends the API key in it, and nothing may replace or add to it",
	"Accept":        "the provider asks for JSON, the only answer it can read",
	"Content-Type":  "the provider sends forms and declares them itself",
	"User-Agent": "it names the provider and its version, which is how an installation's logs tell its requests " +
		"apart; an access proxy can match the extra headers instead",
	"Host": "Go sends the host of the base URL, which is also the name the TLS certificate is checked against; " +
		"to reach the installation under another name, put that name in base_url",
	"Proxy-Authorization": "requests to an https:// base URL cross a proxy through a tunnel, so this header would " +
		"reach the installation, not the proxy; give the proxy's credentials in HTTPS_PROXY " +
		"(http://user:password@proxy:3128) instead",
	"Content-Length":    "Go's HTTP transport sets it",
	"Transfer-Encoding": "Go's HTTP transport sets it",
	"Connection":        "Go's HTTP transport manages connections",
	"Keep-Alive":        "Go's HTTP transport manages connections",
	"Proxy-Connection":  "Go's HTTP transport manages connections",
	"Te":                "Go's HTTP transport sets it",
	"Trailer":           "Go's HTTP transport sets it",
	"Upgrade":           "Go's HTTP transport manages protocol upgrades",
}

// CheckHeader returns why name: value cannot be an extra request header
// (Options.Headers), or nil. The error never quotes the value, which may be
// a secret such as an access proxy's service token.
func CheckHeader(name, value string) error {
	switch {
	case name == "":
		return errors.New("the header name is empty")
	case !httpguts.ValidHeaderFieldName(name):
		return fmt.Errorf("%q is not a valid header name (letters, digits and !#$%%&'*+-.^_`|~ only, no spaces or colons)", name)
	}
	if why, ok := reservedHeaders[http.CanonicalHeaderKey(name)]; ok {
		return fmt.Errorf("the header %q cannot be set: %s", http.CanonicalHeaderKey(name), why)
	}
	switch {
	case value == "":
		return fmt.Errorf("the value of the header %q is empty", name)
	case !httpguts.ValidHeaderFieldValue(value):
		return fmt.Errorf("the value of the header %q contains a line break or another control character", name)
	}
	return nil
}

// checkHeaders checks every extra header and returns them canonicalised.
func checkHeaders(hs map[string]string) (http.Header, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	out := http.Header{}
	keys := make([]string, 0, len(hs))
	for k := range hs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := CheckHeader(k, hs[k]); err != nil {
			return nil, err
		}
		ck := http.CanonicalHeaderKey(k)
		if out.Get(ck) != "" {
			return nil, fmt.Errorf("the header %q is given twice, in different cases", ck)
		}
		// Go's transport sends a value trimmed: keep (and redact) what is sent.
		out.Set(ck, strings.TrimSpace(hs[k]))
	}
	return out, nil
}
