package userinfo

import "testing"

func TestSuspect(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]bool{
		// user information, well formed
		"https://admin:pw@analytics.example.com": true,
		"admin:pw@example.com":                   true,
		"https://user@example.com/":              true,
		"s3://KEY:SECRET@bucket/x":               true,
		"https://a:b@c@example.com/":             true,
		// cut short by a "/", "?" or "#" in the password
		"https://admin:2024/Pw@analytics.example.com":     true,
		"https://admin:/Pw@analytics.example.com":         true,
		"https://admin:2024/Pw@intranet:8080":             true,
		"https://admin.corp:2024/Pw@intranet":             true,
		"https://ad.min:20/24/Pw@analytics.example.com":   true,
		"https://admin:2024?Pw@analytics.example.com/":    true,
		"https://admin:2024#Pw@analytics.example.com":     true,
		"https://token/Pw@analytics.example.com":          true,
		"http://admin:2024/Pw@127.0.0.1:8080":             true,
		"http://admin:2024/Pw@[::1]:8080/x":               true,
		"https://ad.min:20/24/Pw@localhost":               true,
		"admin:2024/Pw@analytics.example.com":             true,
		"https://cdn.example.com:8443/pkg@1.2.3/x.js":     true, // ambiguous: written %40
		"https://example.com/a/b/c@analytics.example.com": true,
		// an "@" in the path or query of a URL with a real host
		"https://cdn.jsdelivr.net/npm/analytics@1.2.3/js/script.js":     false,
		"https://unpkg.com/@scope/pkg@1.0.0/dist/script.js":             false,
		"https://example.com/@user":                                     false,
		"https://example.com/team@2024/analytics":                       false,
		"https://cdn.example.com/script.js?ref=ops@example.com":         false,
		"https://example.com:8443/a/b@c":                                true, // ambiguous after a port: written %40
		"https://john.smith:2024?Summer/Secret@cdn.example.com/js/s.js": true, // a password cut by "?"
		"https://john.smith:2024#Summer/Secret@cdn.example.com/js/s.js": true, // cut by "#"
		"https://john.smith:?x/y@cdn.example.com/js/s.js":               true, // an empty port
		"https://john.smith:2024/a?b@cdn.example.com/":                  true,
		"http://ad.min:20/24/Pw-Xq81Zz@intranet:8080":                   true, // the real host one label
		"https://ad.min:20/24/Pw@analytics.bücher.de":                   true, // the real host an IDN
		"https://[2001:db8::1]/@x":                                      false,
		"http://localhost:8080/a/x@y":                                   true, // ambiguous after a port: written %40
		// no "@"
		"https://analytics.example.com": false,
		"https://admin:2024/Pw":         false,
		"example.com":                   false,
		"":                              false,
	} {
		if got := Suspect(raw); got != want {
			t.Errorf("Suspect(%q) = %v, want %v", raw, got, want)
		}
	}
}

func TestInAuthorityAndHidden(t *testing.T) {
	t.Parallel()
	if !InAuthority("https://u:p@example.com/") || InAuthority("https://admin:2024/Pw@example.com") {
		t.Error("InAuthority: wrong for a well-formed user information or one cut short")
	}
	if Hidden("https://u:p@example.com/") || !Hidden("https://admin:2024/Pw@example.com") {
		t.Error("Hidden: wrong for a well-formed user information or one cut short")
	}
}
