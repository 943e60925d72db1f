package tracking

// What a visit records of the visitor's user agent: the application asks
// WhichBrowser's parser (the PHP package whichbrowser/parser) and stores
// $ua->browser->name, $ua->os->name and $ua->device->type, each cut to 64
// characters, under the statistics names browser, os and device. The
// emulator parses with a Go library (github.com/medama-io/go-useragent) and
// turns its answers into WhichBrowser's names where the two differ. The
// line numbers below are of the parser's release v2.1.8 (commit
// 581d614d686bfbec3529ad60562a5213ac5d8d72), as in bots_whichbrowser.tsv;
// useragent_test.go checks the result on the user agents of current
// browsers. What the emulator leaves out: the parser's rarer browsers,
// phones and operating systems, which fall back to the library's names.

import (
	"regexp"
	"strings"
	"sync"

	"github.com/medama-io/go-useragent"
	"github.com/medama-io/go-useragent/agents"

	"github.com/analytics-tf/terraform-provider-analytics/internal/php"
)

// visitorAgent is what a visit records of its user agent, in
// WhichBrowser's names ("" where the parser finds nothing).
type visitorAgent struct {
	Browser, OS, Device string
}

// uaParser builds the library's lookup tree once, on the first visit.
var uaParser = sync.OnceValue(useragent.NewParser)

// whichBrowserNames are WhichBrowser's names for the library's browsers and
// operating systems where the two differ (the rest are the same).
var whichBrowserNames = map[string]string{
	string(agents.BrowserSamsung): "Samsung Internet",  // Browser.php:242
	string(agents.BrowserIE):      "Internet Explorer", // Browser.php:381
	string(agents.BrowserSilk):    "Silk",              // Browser.php:1676
	string(agents.OSMacOS):        "OS X",              // Os.php:103 (macOS is only its alias, Derive.php:449)
	string(agents.OSChromeOS):     "Chrome OS",         // Os.php:1751
}

// linuxDistributions are the names WhichBrowser gives a Linux user agent
// that names its distribution (Os.php:2055-2280, in the parser's order: the
// last that matches wins).
var linuxDistributions = []struct {
	re   *regexp.Regexp
	name string
}{
	{regexp.MustCompile(`Antergos Linux`), "Antergos Linux"}, // Os.php:2062
	{regexp.MustCompile(`Arch ?Linux`), "Arch Linux"},        // Os.php:2067
	{regexp.MustCompile(`Black Lab Linux`), "Black Lab Linux"},
	{regexp.MustCompile(`CentOS`), "CentOS"}, // Os.php:2081
	{regexp.MustCompile(`Debian`), "Debian"}, // Os.php:2094
	{regexp.MustCompile(`Fedora`), "Fedora"}, // Os.php:2107
	{regexp.MustCompile(`Gentoo`), "Gentoo"}, // Os.php:2120
	{regexp.MustCompile(`gNewSense`), "gNewSense"},
	{regexp.MustCompile(`Kubuntu`), "Kubuntu"},       // Os.php:2138
	{regexp.MustCompile(`Linux Mint`), "Linux Mint"}, // Os.php:2147
	{regexp.MustCompile(`Mageia`), "Mageia"},         // Os.php:2165
	{regexp.MustCompile(`Mandriva`), "Mandriva"},     // Os.php:2156, 2178
	{regexp.MustCompile(`moonOS`), "moonOS"},
	{regexp.MustCompile(`Red Hat`), "Red Hat"},     // Os.php:2196
	{regexp.MustCompile(`Slackware`), "Slackware"}, // Os.php:2205
	{regexp.MustCompile(`SUSE`), "SUSE"},           // Os.php:2214
	{regexp.MustCompile(`Turbolinux`), "Turbolinux"},
	{regexp.MustCompile(`Ubuntu`), "Ubuntu"},               // Os.php:2236
	{regexp.MustCompile(`elementary OS`), "elementary OS"}, // Os.php:2280
}

// androidMobileRE is Os.php:243: an Android user agent (4 or later) that
// says "Mobile" is a phone's; without it, a tablet's (Os.php:240).
var androidMobileRE = regexp.MustCompile(`Mobile`)

// Android's WebView sends Chrome's agent with "; wv)" (Android 5 and
// later, Browser.php:177) or, from Android 4.4, with Version/ (or Release/)
// and a Chrome version whose second and third parts are 0.0
// (Browser.php:167): the parser then names no browser.
var (
	webViewRE       = regexp.MustCompile(`; wv\)`)
	webViewFormRE   = regexp.MustCompile(`Version/|Release/`)
	chromeVersionRE = regexp.MustCompile(`(?:Chrome|CrMo|CriOS)/([0-9.]*)`)
)

// androidWebView reports whether the parser takes userAgent, which it
// calls Chrome on Android, for an app's WebView.
func androidWebView(userAgent string) bool {
	if webViewRE.MatchString(userAgent) {
		return true
	}
	m := chromeVersionRE.FindStringSubmatch(userAgent)
	if m == nil || !webViewFormRE.MatchString(userAgent) {
		return false
	}
	parts := strings.Split(m[1], ".")
	return len(parts) >= 3 && parts[1] == "0" && parts[2] == "0"
}

// operaTouchRE is Browser.php:673: Opera on iOS.
var operaTouchRE = regexp.MustCompile(`OPT/`)

// safariRE is Browser.php:76, and safariSystems the operating systems on
// which the parser names Safari (Browser.php:84, :94).
var (
	safariRE      = regexp.MustCompile(`Safari`)
	safariSystems = map[string]bool{"iOS": true, "OS X": true, "Windows": true}
)

// tizenRE is Os.php:1194 (the OS Tizen, which the library takes for Linux
// or nothing), chromeRE Browser.php:130 and tizenBrowserRE Os.php:1272.
var (
	tizenRE        = regexp.MustCompile(`Tizen`)
	chromeRE       = regexp.MustCompile(`(?:Chrome|CrMo|CriOS)/[0-9]|Browser/Chrome[0-9]`)
	tizenBrowserRE = regexp.MustCompile(`(?:Samsung|Tizen ?)Browser/`)
)

// classifyUserAgent is what the application records of userAgent.
func classifyUserAgent(userAgent string) visitorAgent {
	// The parser reads the first of two user agents pasted together
	// (bots.go).
	userAgent = concatenatedUARE.ReplaceAllString(userAgent, "$1")
	// A bot (bots.go): the parser resets everything else; a bot of its
	// list is named, the two generic rules leave the name empty
	// (Bot.php).
	if name, bot := botName(userAgent); bot {
		if name == "generic" {
			name = ""
		}
		return visitorAgent{Browser: php.Substr(name, 64), Device: "bot"}
	}
	a := uaParser().Parse(userAgent)
	tizen := tizenRE.MatchString(userAgent)
	v := visitorAgent{Browser: a.Browser().String(), OS: a.OS().String()}
	if n, ok := whichBrowserNames[v.Browser]; ok {
		v.Browser = n
	}
	if n, ok := whichBrowserNames[v.OS]; ok {
		v.OS = n
	}
	switch a.Device() {
	case agents.DeviceDesktop:
		v.Device = "desktop"
	case agents.DeviceMobile:
		v.Device = "mobile"
	case agents.DeviceTablet:
		v.Device = "tablet"
	case agents.DeviceTV:
		v.Device = "television"
	default:
		// The library's own bots (e.g. HeadlessChrome) are visitors to
		// the parser, which types a desktop system's agent "desktop".
		v.Device = ""
		switch a.OS() {
		case agents.OSWindows, agents.OSMacOS, agents.OSLinux, agents.OSChromeOS, agents.OSFreeBSD, agents.OSOpenBSD:
			v.Device = "desktop"
		}
	}

	switch a.OS() {
	case agents.OSAndroid:
		if v.Device == "mobile" && !androidMobileRE.MatchString(userAgent) {
			v.Device = "tablet" // Os.php:240-245
		}
		if a.Browser() == agents.BrowserFirefox && (v.Device == "mobile" || v.Device == "tablet") {
			v.Browser = "Firefox Mobile" // Browser.php:773
		}
		if a.Browser() == agents.BrowserOpera && v.Device == "mobile" && strings.Contains(userAgent, "OPR/") {
			v.Browser = "Opera Mobile" // Browser.php:558-559
		}
		if a.Browser() == agents.BrowserChrome && androidWebView(userAgent) {
			v.Browser = "" // Browser.php:167-183: Chromium WebView, no browser's name
		}
	case agents.OSIOS:
		if a.Browser() == agents.BrowserSafari && operaTouchRE.MatchString(userAgent) {
			v.Browser = "Opera Touch" // Browser.php:673-675
		}
	case agents.OSLinux:
		if tizen {
			break // Tizen's own rules below
		}
		if a.Browser() == agents.BrowserSamsung {
			// Samsung Internet's desktop mode (DeX, and tablets by
			// default): Android on a desktop (Browser.php:273-286).
			v.OS, v.Device = "Android", "desktop"
			break
		}
		for _, d := range linuxDistributions {
			if d.re.MatchString(userAgent) {
				v.OS = d.name
			}
		}
	}
	if tizen {
		// Samsung's televisions and watches: the OS Tizen (Os.php:1195);
		// a Chrome agent there names no browser (Browser.php:130,
		// Corrections.php:125), the stock browser's own token is Samsung
		// Browser (Os.php:1272-1273).
		v.OS = "Tizen"
		switch {
		case chromeRE.MatchString(userAgent):
			v.Browser = ""
		case tizenBrowserRE.MatchString(userAgent):
			v.Browser = "Samsung Browser"
		}
	}
	// Safari is named only for an agent that says Safari, on iOS, OS X or
	// Windows (Browser.php:76, :84, :94): an app's WebView (no Safari/
	// token) and a WebKit browser elsewhere name no browser.
	if v.Browser == "Safari" && (!safariRE.MatchString(userAgent) || !safariSystems[v.OS]) {
		v.Browser = ""
	}
	if v.OS == "" && v.Browser == "" {
		v.Device = "" // nothing recognised: the parser types nothing
	}
	// Game consoles (Device/Gaming.php): after the check above, as the
	// parser types a console it recognises by nothing else.
	switch {
	case xboxOneRE.MatchString(userAgent):
		v.Device = "gaming" // Gaming.php:228-241 (the OS kept: Windows 10)
		if v.OS != "Windows" {
			v.OS = ""
		}
	case consoleRE.MatchString(userAgent):
		v.OS, v.Device = "", "gaming" // Gaming.php:209-218, 246-253
	}
	return visitorAgent{Browser: php.Substr(v.Browser, 64), OS: php.Substr(v.OS, 64), Device: v.Device}
}

// xboxOneRE is Gaming.php:228; consoleRE the other current consoles whose
// OS the parser resets: PlayStation 5 (Gaming.php:209) and Xbox Series X
// (Gaming.php:246).
var (
	xboxOneRE = regexp.MustCompile(`Xbox One\)`)
	consoleRE = regexp.MustCompile(`(?i:PlayStation 5)|\(PS5|Xbox Series X\)`)
)
