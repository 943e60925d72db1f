package tracking

import (
	"slices"
	"testing"
	"unicode/utf8"
)

// FuzzClassifyUserAgent: a visitor's User-Agent, any bytes, through what a
// visit records of it (classifyUserAgent, Record). For any input: no
// panic; the same answer twice; browser and OS at most 64 characters, as
// the application cuts them; a device type of WhichBrowser's the emulator
// gives ("" when the parser types nothing); a bot has no OS; nothing
// recognised types no device.
func FuzzClassifyUserAgent(f *testing.F) {
	for _, tc := range currentBrowsers {
		f.Add(tc.userAgent)
	}
	for _, s := range []string{"Mozilla/5.0", "garbage \x00\xff", "Mozilla/5.0 (Linux; Android) Chrome/..0 Version/", "OPT/",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)Mozilla/5.0 (Windows NT 10.0)",
		"curl/8.5.0", "CURL/1", "O\u212aHttp/4", "\u017fimple", "ma\u0130l.ru", "mail\xffru", "mail.ru\xff", "Mozilla/5.0 (X11; Ubuntu; Fedora; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0"} {
		f.Add(s)
	}
	for _, tc := range whichBrowserCorrections {
		f.Add(tc.userAgent)
	}
	devices := []string{"", "desktop", "mobile", "tablet", "television", "gaming", "bot"}
	f.Fuzz(func(t *testing.T, userAgent string) {
		if fast, re := botFilterMatch(userAgent), botFilter.MatchString(userAgent); fast != re {
			t.Errorf("botFilterMatch(%q) = %v, the quick filter's regexp %v", userAgent, fast, re)
		}
		got := classifyUserAgent(userAgent)
		if again := classifyUserAgent(userAgent); again != got {
			t.Fatalf("classifyUserAgent(%q) = %+v, then %+v", userAgent, got, again)
		}
		if n := utf8.RuneCountInString(got.Browser); n > 64 {
			t.Errorf("classifyUserAgent(%q): browser of %d characters, more than the application's 64", userAgent, n)
		}
		if n := utf8.RuneCountInString(got.OS); n > 64 {
			t.Errorf("classifyUserAgent(%q): OS of %d characters, more than the application's 64", userAgent, n)
		}
		if !slices.Contains(devices, got.Device) {
			t.Errorf("classifyUserAgent(%q): device %q, none of %q", userAgent, got.Device, devices)
		}
		if got.Device == "bot" && got.OS != "" {
			t.Errorf("classifyUserAgent(%q) = %+v: a bot has no OS (the parser resets it)", userAgent, got)
		}
		if got.Browser == "" && got.OS == "" && got.Device != "" && got.Device != "bot" && got.Device != "gaming" {
			t.Errorf("classifyUserAgent(%q) = %+v: nothing recognised, yet a device type (only a console is typed "+
				"by its name alone)", userAgent, got)
		}
	})
}
