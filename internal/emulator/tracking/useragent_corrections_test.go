package tracking

import "testing"

// User agents where the library names a browser or an OS that WhichBrowser
// (release v2.1.8, commit 581d614d686bfbec3529ad60562a5213ac5d8d72) does
// not: each expectation is the parser's own answer for the agent (its
// browser->name, os->name, device->type), with the source lines that set it.
var whichBrowserCorrections = []struct {
	name                string
	userAgent           string
	browser, os, device string
	why                 string
}{
	// Safari is named only for an agent that says Safari, on iOS, OS X or
	// Windows (Browser.php:76, :84, :94): an app's WebView (WKWebView, no
	// Safari/ token) and WebKit browsers on Linux are no browser.
	{
		"an app's WebView on an iPhone",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
		"", "iOS", "mobile", "Browser.php:76 (no Safari/)",
	},
	{
		"an app's WebView on an iPad",
		"Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
		"", "iOS", "tablet", "Browser.php:76 (no Safari/)",
	},
	{
		"an app's WebView on macOS",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
		"", "OS X", "desktop", "Browser.php:76 (no Safari/)",
	},
	{
		"a WebKit browser on Linux",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
		"", "Linux", "desktop", "Browser.php:84, :94 (Safari only on iOS, OS X, Windows)",
	},
	// Tizen (Samsung's televisions and watches) is an OS of its own
	// (Os.php:1194-1195), so Samsung Internet's desktop-mode rule, which
	// needs the OS Linux (Browser.php:273), does not apply, and a Chrome
	// agent on Tizen names no browser (Corrections.php:125).
	{
		"Samsung Internet on a Samsung television",
		"Mozilla/5.0 (SMART-TV; Linux; Tizen 7.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/5.0 Chrome/94.0.4606.31 TV Safari/537.36",
		"", "Tizen", "television", "Os.php:1195, Browser.php:273, Corrections.php:125",
	},
	{
		"a Samsung television's own browser",
		"Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36",
		"", "Tizen", "television", "Os.php:1195, Browser.php:84, :94",
	},
	// Game consoles are "gaming" (Device/Gaming.php; the library says
	// television or nothing), their OS reset but Windows 10 on an Xbox One.
	{
		"Edge on an Xbox One",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edge/44.18363.8131",
		"Edge", "Windows", "gaming", "Gaming.php:228-241",
	},
	{
		"Edge on an Xbox Series X",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox Series X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edge/20.02",
		"Edge", "", "gaming", "Gaming.php:246-253",
	},
	{
		"a PlayStation 5",
		"Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko)",
		"", "", "gaming", "Gaming.php:209-218",
	},
}

func TestClassifyUserAgent_whichBrowserCorrections(t *testing.T) {
	t.Parallel()
	for _, tc := range whichBrowserCorrections {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := classifyUserAgent(tc.userAgent)
			want := visitorAgent{Browser: tc.browser, OS: tc.os, Device: tc.device}
			if got != want {
				t.Errorf("classifyUserAgent(%q)\n = %+v\nwant %+v (WhichBrowser: %s)", tc.userAgent, got, want, tc.why)
			}
		})
	}
}
