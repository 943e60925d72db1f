package tracking

import "testing"

// The user agents of current browsers on each platform, and what the
// application records of each: WhichBrowser's names, read from the parser's
// source (release v2.1.8, commit 581d614d686bfbec3529ad60562a5213ac5d8d72;
// src/Analyser/Header/Useragent/Browser.php and Os.php, data/models-ios.php).
// Each expectation names the file and line that sets it.
var currentBrowsers = []struct {
	name                    string
	userAgent               string
	browser, os, device     string
	browserFrom, osFrom, dt string // where the parser sets each
}{
	// Desktop: Chrome, Edge, Firefox on Windows, macOS and Linux; Safari
	// on macOS. Browser: Chrome Browser.php:131, Edge Browser.php:523
	// (Edg/), Firefox Browser.php:723, Safari Browser.php:96. OS: Windows
	// Os.php:620 (desktop :621), OS X Os.php:103 (desktop :117; "macOS" is
	// only the alias of Derive.php:449, which the application does not
	// read), Linux Os.php:2055 (desktop :2058).
	{
		"Chrome on Windows",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
		"Chrome", "Windows", "desktop", "Browser.php:131", "Os.php:620", "Os.php:621",
	},
	{
		"Chrome on macOS",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
		"Chrome", "OS X", "desktop", "Browser.php:131", "Os.php:103", "Os.php:117",
	},
	{
		"Chrome on Linux",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
		"Chrome", "Linux", "desktop", "Browser.php:131", "Os.php:2055", "Os.php:2058",
	},
	{
		"Edge on Windows",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0",
		"Edge", "Windows", "desktop", "Browser.php:523", "Os.php:620", "Os.php:621",
	},
	{
		"Edge on macOS",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0",
		"Edge", "OS X", "desktop", "Browser.php:523", "Os.php:103", "Os.php:117",
	},
	{
		"Edge on Linux",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0",
		"Edge", "Linux", "desktop", "Browser.php:523", "Os.php:2055", "Os.php:2058",
	},
	{
		"Firefox on Windows",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0",
		"Firefox", "Windows", "desktop", "Browser.php:723", "Os.php:620", "Os.php:621",
	},
	{
		"Firefox on macOS",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:145.0) Gecko/20100101 Firefox/145.0",
		"Firefox", "OS X", "desktop", "Browser.php:723", "Os.php:103", "Os.php:117",
	},
	{
		"Firefox on Linux",
		"Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0",
		"Firefox", "Linux", "desktop", "Browser.php:723", "Os.php:2055", "Os.php:2058",
	},
	{
		"Firefox on Ubuntu (the distribution named)",
		"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0",
		"Firefox", "Ubuntu", "desktop", "Browser.php:723", "Os.php:2236", "Os.php:2058",
	},
	{
		"Firefox on Fedora (the distribution named)",
		"Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0",
		"Firefox", "Fedora", "desktop", "Browser.php:723", "Os.php:2107", "Os.php:2058",
	},
	{
		"Safari on macOS",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15",
		"Safari", "OS X", "desktop", "Browser.php:96", "Os.php:103", "Os.php:117",
	},
	// Android: Chrome and Samsung Internet on a phone ("Mobile") and a
	// tablet (without it). OS: Android Os.php:206; device: mobile for
	// Android 4 and later with "Mobile" (Os.php:243-244), else tablet
	// (Os.php:239-240). Samsung Internet Browser.php:242.
	{
		"Chrome on an Android phone",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36",
		"Chrome", "Android", "mobile", "Browser.php:131", "Os.php:206", "Os.php:244",
	},
	{
		"Chrome on an Android tablet",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
		"Chrome", "Android", "tablet", "Browser.php:131", "Os.php:206", "Os.php:240",
	},
	{
		"Samsung Internet on an Android phone",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/29.0 Chrome/136.0.0.0 Mobile Safari/537.36",
		"Samsung Internet", "Android", "mobile", "Browser.php:242", "Os.php:206", "Os.php:244",
	},
	{
		"Samsung Internet on an Android tablet",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/29.0 Chrome/136.0.0.0 Safari/537.36",
		"Samsung Internet", "Android", "tablet", "Browser.php:242", "Os.php:206", "Os.php:240",
	},
	{
		// What Samsung Internet sends on a tablet by default, and on DeX.
		"Samsung Internet in desktop mode",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/29.0 Chrome/136.0.0.0 Safari/537.36",
		"Samsung Internet", "Android", "desktop", "Browser.php:274", "Browser.php:279", "Browser.php:286",
	},
	{
		"Firefox on an Android phone",
		"Mozilla/5.0 (Android 15; Mobile; rv:145.0) Gecko/145.0 Firefox/145.0",
		"Firefox Mobile", "Android", "mobile", "Browser.php:773", "Os.php:206", "Os.php:244",
	},
	// Opera on an Android phone: OPR/ on a device typed mobile is Opera
	// Mobile (Browser.php:539-542, 558-559); on a tablet, Opera.
	{
		"Opera on an Android phone",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36 OPR/92.0.0.0",
		"Opera Mobile", "Android", "mobile", "Browser.php:559", "Os.php:206", "Os.php:244",
	},
	{
		"Opera on an Android tablet",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 OPR/92.0.0.0",
		"Opera", "Android", "tablet", "Browser.php:542", "Os.php:206", "Os.php:240",
	},
	// An app's Android WebView: Chrome's agent with "; wv)" (Android 5 and
	// later), or with Version/ and a version x.0.0 (4.4 and later): the
	// parser names no browser, only what it uses (Chromium WebView;
	// tests/data/mobile/browser-obigo.yaml, "Nokia 1 ... wv").
	{
		"Android WebView",
		"Mozilla/5.0 (Linux; Android 10; K; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/142.0.0.0 Mobile Safari/537.36",
		"", "Android", "mobile", "Browser.php:177-183", "Os.php:206", "Os.php:244",
	},
	{
		"Android WebView (4.4 form)",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/142.0.0.0 Mobile Safari/537.36",
		"", "Android", "mobile", "Browser.php:167-174", "Os.php:206", "Os.php:244",
	},
	// Browsers of their own names: Opera Touch on an iPhone (OPT/), Chrome
	// (CriOS/) and Firefox (FxiOS/) on iOS, Edge on Android (EdgA/).
	{
		"Opera on an iPhone",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1 OPT/5.3.0",
		"Opera Touch", "iOS", "mobile", "Browser.php:675", "Os.php:63", "models-ios.php:10",
	},
	{
		"Chrome on an iPhone",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/142.0.7444.77 Mobile/15E148 Safari/604.1",
		"Chrome", "iOS", "mobile", "Browser.php:131", "Os.php:63", "models-ios.php:10",
	},
	{
		"Firefox on an iPhone",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/145.0 Mobile/15E148 Safari/605.1.15",
		"Firefox", "iOS", "mobile", "Browser.php:815", "Os.php:63", "models-ios.php:10",
	},
	{
		"Edge on an Android phone",
		"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36 EdgA/142.0.0.0",
		"Edge", "Android", "mobile", "Browser.php:517", "Os.php:206", "Os.php:244",
	},
	// iOS: Safari on an iPhone and an iPad (the iPad's mobile user agent;
	// by default an iPad asks for desktop sites and sends Safari on macOS's,
	// above). OS: iOS Os.php:63; device: data/models-ios.php:10 (iPhone,
	// mobile) and :22 (iPad, tablet). Safari Browser.php:85.
	{
		"Safari on an iPhone",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1",
		"Safari", "iOS", "mobile", "Browser.php:85", "Os.php:63", "models-ios.php:10",
	},
	{
		"Safari on an iPad",
		"Mozilla/5.0 (iPad; CPU OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1",
		"Safari", "iOS", "tablet", "Browser.php:85", "Os.php:63", "models-ios.php:22",
	},
	// Headless Chromium (the browser test's): Chrome on Linux, a visitor
	// (the parser knows nothing of "headless"; /Chrome\/[0-9]/ matches
	// inside HeadlessChrome/, Browser.php:130-131).
	{
		"headless Chromium",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36",
		"Chrome", "Linux", "desktop", "Browser.php:131", "Os.php:2055", "Os.php:2058",
	},
	// Bots: the parser resets browser and OS and types the device "bot"
	// (Bot.php); a bot of its list keeps the list's name
	// (data/applications-bots.php, line in bots_whichbrowser.tsv).
	{
		"Googlebot",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Googlebot", "", "bot", "Bot.php:36-37", "Bot.php:38", "Bot.php:42",
	},
	{
		"an unknown crawler",
		"ExampleCrawler/1.0",
		"", "", "bot", "Bot.php:26", "Bot.php:27", "Bot.php:31",
	},
	// Nothing recognised: nothing recorded but empty names.
	{"empty", "", "", "", "", "-", "-", "-"},
	{"Lighthouse", "Lighthouse", "", "", "", "-", "-", "-"},
}

func TestClassifyUserAgent_currentBrowsers(t *testing.T) {
	t.Parallel()
	for _, tc := range currentBrowsers {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := classifyUserAgent(tc.userAgent)
			want := visitorAgent{Browser: tc.browser, OS: tc.os, Device: tc.device}
			if got != want {
				t.Errorf("classifyUserAgent(%q)\n = %+v\nwant %+v (WhichBrowser: browser %s, os %s, device %s)",
					tc.userAgent, got, want, tc.browserFrom, tc.osFrom, tc.dt)
			}
		})
	}
}
