package tracking

import (
	"strings"
	"testing"
)

// botCases are user agents and whether the application excludes them as
// bots, with the rule of WhichBrowser's parser that decides (see bots.go).
// The first rows are the answers measured on the application.
var botCases = []struct {
	ua   string
	bot  bool
	name string // the list's name, "generic" for Bot.php's rules, "" for no bot
}{
	// Measured on the application (POST /api/event, exclude_bots on).
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36", false, ""},
	{"curl/8.5.0", true, "Curl"},
	{"Python-urllib/3.11", true, "Python"},
	{"Go-http-client/1.1", true, "Go Http Client"},
	{"", false, ""},
	{DesktopUserAgent, false, ""}, // a desktop Firefox 128
	{"Lighthouse", false, ""},
	{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", true, "Googlebot"},
	{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", true, "Bing"},
	{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", true, "Facebook"},
	{"facebookexternalhit/1.1", true, "Facebook"},

	// Browsers.
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/148.0.0.0 Safari/537.36", false, ""},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/148.0.0.0 Safari/537.36", false, ""},
	{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", false, ""},
	{"Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36", false, ""},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0", false, ""},
	{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Chrome-Lighthouse", false, ""},

	// Crawlers (the list, and Bot.php's two rules).
	{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", true, "Yandex Bot"},
	{"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", true, "Baiduspider"},
	{"DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", true, "DuckDuckGo Bot"},
	{"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", true, "Yahoo! Slurp"},
	{"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", true, "Ahrefs Bot"},
	{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", true, "Apple Bot"},
	{"Twitterbot/1.0", true, "Twitterbot"},
	{"SomeCrawler/1.0", true, "generic"},
	{"ExampleSpider", true, "generic"},
	{"Mozilla/5.0 (compatible; SomethingNew/1.0; +https://example.org/about)", true, "generic"},

	// HTTP libraries and command-line clients the list names.
	{"Wget/1.21.4", true, "Wget"},
	{"python-requests/2.31.0", true, "Python"},
	{"okhttp/4.12.0", true, "OkHttp"},
	{"Java/17.0.9", true, "Java"},
	{"Apache-HttpClient/4.5.14 (Java/17.0.9)", true, "Apache Httpd"},
	{"Jakarta Commons-HttpClient/3.1", true, "Apache Jakarta"},
	{"libwww-perl/6.72", true, "Perl"},
	{"LWP::Simple/6.00 libwww-perl/6.05", true, "Perl"},
	{"node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", true, "Node Fetch"},
	{"node-fetch/2.6", true, "Node Fetch"},
	{"PHP/8.2.12", true, "PHP"},
	{"Zend_Http_Client", true, "PHP"},
	{"Ruby", true, "Ruby"},
	{"Scrapy/2.11.0 (+https://scrapy.org)", true, "Scrapy"},
	{"Mozilla/4.0 (compatible; Win32; WinHttp.WinHttpRequest.5) Indy Library", true, "Borland Delphi"},

	// HTTP tools the parser knows nothing of: visitors to the application.
	{"axios/1.6.2", false, ""},
	{"PostmanRuntime/7.36.0", false, ""},
	{"insomnia/2023.5.8", false, ""},
	{"HTTPie/3.2.2", false, ""},
	{"Python/3.11 aiohttp/3.9.1", false, ""},
	{"python-httpx/0.27.0", false, ""},
	{"GuzzleHttp/7", false, ""},
	{"Java-http-client/17.0.9", false, ""},
	{"node", false, ""},
	{"undici", false, ""},

	// A user agent pasted twice is read as its first half.
	{"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 Mozilla/5.0 (compatible; Googlebot/2.1)", false, ""},
}

func TestIsBot(t *testing.T) {
	t.Parallel()
	for _, tc := range botCases {
		name, bot := botName(tc.ua)
		if bot != tc.bot || name != tc.name || IsBot(tc.ua) != tc.bot {
			t.Errorf("%q: bot %v (%q), want %v (%q)", tc.ua, bot, name, tc.bot, tc.name)
		}
	}
}

// The quick filter's word search answers as its regexp, whatever the case
// of a user agent, on every user agent of the tests; the fuzz target
// FuzzClassifyUserAgent checks any other.
func TestBotFilterMatch_asTheRegexp(t *testing.T) {
	t.Parallel()
	uas := []string{"CURL/8", "cUrL", "O\u212aHttp/4" /* the Kelvin sign folds to k */, "\u017fimple" /* the long s to s */, "\u212a",
		"MAIL.RU", "mailxru", "Y!J", "yxj", "wget\xff", "\xffwget", "w\xffget", "\u0130", ""}
	for _, tc := range botCases {
		uas = append(uas, tc.ua, strings.ToUpper(tc.ua), strings.ToLower(tc.ua))
	}
	for _, tc := range currentBrowsers {
		uas = append(uas, tc.userAgent)
	}
	for _, tc := range whichBrowserCorrections {
		uas = append(uas, tc.userAgent)
	}
	matched := 0
	for _, ua := range uas {
		fast, re := botFilterMatch(ua), botFilter.MatchString(ua)
		if fast != re {
			t.Errorf("botFilterMatch(%q) = %v, the regexp %v", ua, fast, re)
		}
		if re {
			matched++
		}
	}
	if matched == 0 || matched == len(uas) {
		t.Errorf("the regexp matched %d of %d user agents: the cases do not tell", matched, len(uas))
	}
}

// The list is the parser's whole list: 390 entries, each with its line in
// the parser's file, in that file's order, behind the parser's quick filter.
func TestBotList_complete(t *testing.T) {
	t.Parallel()
	if len(botList) != 390 {
		t.Errorf("%d entries, want the parser's 390", len(botList))
	}
	prev := 0
	for _, b := range botList {
		if b.line <= prev || b.name == "" {
			t.Errorf("entry %+v after line %d", b, prev)
		}
		prev = b.line
	}
	for _, want := range []string{"curl", "wget", "urllib", "requests", "okhttp", "httpclient", "libwww", "java", "go", "node"} {
		if !strings.Contains(botFilter.String(), "|"+want+"|") {
			t.Errorf("the quick filter lacks %q", want)
		}
	}
}
