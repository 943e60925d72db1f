package leakcheck

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	const secret = `s3cr/t+k=y"\<&?# x`
	js, _ := json.Marshal(secret)
	php := strings.ReplaceAll(string(js), "/", `\/`)
	for _, tc := range []struct {
		name, text string
		found      bool
	}{
		{"raw", "x " + secret + " y", true},
		{"cut to a window", "…" + secret[3:13] + "…", true},
		{"Go JSON", string(js), true},
		{"PHP JSON", php, true},
		{"query-escaped", url.QueryEscape(secret), true},
		{"path-escaped", url.PathEscape(secret), true},
		{"upper case", strings.ToUpper(secret), true},
		{"a shorter piece", secret[:Window-1], false},
		{"redacted", "[REDACTED]", false},
		{"empty", "", false},
	} {
		if got := Find(tc.text, secret); (got != "") != tc.found {
			t.Errorf("%s: Find(%q) = %q, want found = %v", tc.name, tc.text, got, tc.found)
		}
	}
}

func TestSkip(t *testing.T) {
	for _, tc := range []struct {
		secret string
		clean  []string
		skip   bool
	}{
		{"abc", nil, true},
		{"  abc  ", nil, true},
		{"aaaaaaaaaaaa", nil, true},
		{"REDACTED", nil, true},
		{"example.com/x", []string{"https://example.com/x"}, true},
		{"Zq7sEcReTx", nil, false},
		{"Zq7sEcReTx ", []string{"other"}, false},
	} {
		if got := Skip(tc.secret, tc.clean...); (got != "") != tc.skip {
			t.Errorf("Skip(%q, %q) = %q, want skip = %v", tc.secret, tc.clean, got, tc.skip)
		}
	}
}

func TestGate(t *testing.T) {
	const secret = "Zq7sE/cReTx"
	text := "a " + secret + " b " + url.QueryEscape(secret)
	if got := Gate(true, secret)(text); Find(got, secret) != "" {
		t.Errorf("Gate, registered: %q", got)
	}
	if got := Gate(false, secret)(text); got != text {
		t.Errorf("Gate, not registered, changed the text: %q", got)
	}
	if c := Check(secret, Channel{"log", text}, Channel{"clean", "nothing"}); len(c) != 1 || !strings.HasPrefix(c[0], "log holds") {
		t.Errorf("Check = %q", c)
	}
}
