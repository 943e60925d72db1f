package php

import "testing"

// ParseURL gives the components parse_url gives (php-src's url_t.phpt and
// its documentation): nothing decoded, control bytes as "_".
func TestParseURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]URL{
		"http://b%C3%BCcher.example/":        {Scheme: "http", Host: "b%C3%BCcher.example", Path: "/", HasScheme: true, HasHost: true, HasPath: true},
		"http://www.php.net:80/i.php?a=1#f":  {Scheme: "http", Host: "www.php.net", Path: "/i.php", Query: "a=1", Fragment: "f", HasScheme: true, HasHost: true, HasPath: true, HasQuery: true},
		"http://secret:hideout@www.php.net/": {Scheme: "http", User: "secret", Pass: "hideout", Host: "www.php.net", Path: "/", HasScheme: true, HasHost: true, HasPath: true},
		"www.php.net:80":                     {Host: "www.php.net", HasHost: true},
		"http://[::1]:80/":                   {Scheme: "http", Host: "[::1]", Path: "/", HasScheme: true, HasHost: true, HasPath: true},
		"http://exa mple.com/a b":            {Scheme: "http", Host: "exa mple.com", Path: "/a b", HasScheme: true, HasHost: true, HasPath: true},
		"//example.com/p":                    {Host: "example.com", Path: "/p", HasHost: true, HasPath: true},
		"/just/path?q":                       {Path: "/just/path", Query: "q", HasPath: true, HasQuery: true},
		"http://a\x01b.com":                  {Scheme: "http", Host: "a_b.com", HasScheme: true, HasHost: true},
		"http://bücher.example":              {Scheme: "http", Host: "bücher.example", HasScheme: true, HasHost: true},
	} {
		if got, ok := ParseURL(in); !ok || got != want {
			t.Errorf("ParseURL(%q) = %+v, %v; want %+v", in, got, ok, want)
		}
	}
	for _, in := range []string{"http:///example.com", "http://example.com:65536/", "http://example.com:123456/", "http://:80", ":"} {
		if got, ok := ParseURL(in); ok {
			t.Errorf("ParseURL(%q) = %+v, want false", in, got)
		}
	}
}

// FuzzParseURL: ParseURL never panics, and a host it returns is a part of
// the input with control bytes as "_", never empty.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"http://example.com/", "//a.b:80/x?y#z", "a:1", "http://u:p@[::1]:8/", "file:///c:/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, ok := ParseURL(s)
		if ok && u.HasHost && u.Host == "" {
			t.Errorf("ParseURL(%q): empty host", s)
		}
	})
}
