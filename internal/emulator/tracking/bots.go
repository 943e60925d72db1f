package tracking

// Who counts as a bot for exclude_bots: the application asks WhichBrowser's
// user agent parser (the PHP package whichbrowser/parser) and excludes a
// visitor whose device type comes out as "bot". The emulator applies the
// same rules, in the parser's order, so that it answers as the application
// does:
//
//  1. a user agent carrying an address after a "+" ("+http://...",
//     "+https://..."), as crawlers name their documentation page
//     (src/Analyser/Header/Useragent/Bot.php, the first rule);
//  2. a word ending in Bot, Robot, Spider or Crawler followed by "/", ")",
//     ";" or the end, but not the phone maker CUBOT (the same file, the
//     second rule);
//  3. an entry of the parser's bot list, copied verbatim into
//     bots_whichbrowser.tsv with the line of the parser's file each entry
//     comes from: the crawlers, and the HTTP libraries and command-line
//     clients (curl, Wget, Go's, Python's urllib and requests, Java's,
//     libwww-perl, OkHttp, node-fetch, Apache HttpClient, PHP, Ruby, ...).
//
// Before that, the parser drops a second user agent pasted after the first
// (src/Analyser/Header/Useragent.php). The parser knows nothing of
// "headless" browsers: headless Chromium's own user agent (HeadlessChrome)
// is a visitor like any other, and so are an empty user agent, Lighthouse
// and the HTTP tools that the list does not name (axios, Postman, Insomnia,
// HTTPie, aiohttp, Guzzle, Java's java.net.http client, Node's built-in
// fetch). What the emulator leaves out: the parser's later corrections of
// rare camouflaged phone browsers, which never concern a bot.

import (
	_ "embed" // the parser's bot list
	"fmt"
	"regexp"
	"strings"
)

//go:embed bots_whichbrowser.tsv
var whichBrowserBots string

var (
	// botURLRE is Bot.php's first rule: /\+https?:\/\//iu.
	botURLRE = regexp.MustCompile(`(?i)\+https?://`)
	// botMarkerRE is its second: /(?:Bot|Robot|Spider|Crawler)([\/\);]|$)/iu,
	// unless /CUBOT/iu matches too.
	botMarkerRE = regexp.MustCompile(`(?i)(?:Bot|Robot|Spider|Crawler)(?:[/);]|$)`)
	cubotRE     = regexp.MustCompile(`(?i)CUBOT`)
	// concatenatedUARE is Useragent.php's clean-up of a user agent pasted
	// twice: /^(Mozilla\/[0-9]\.[0-9].{20,})\s+Mozilla\/[0-9]\.[0-9].*$/iu,
	// of which the first is kept.
	concatenatedUARE = regexp.MustCompile(`(?i)^(Mozilla/[0-9]\.[0-9].{20,})\s+Mozilla/[0-9]\.[0-9].*$`)

	botFilter, botList = loadBotList(whichBrowserBots)
	// botFilterWords is botFilter as the words it alternates, which
	// botFilterMatch looks for as substrings: the regexp of 237 words
	// costs about half a millisecond a user agent (much more under the race
	// detector), and every hit asks it.
	botFilterWords = filterWords(botFilter.String())
)

// listedBot is one entry of the parser's bot list.
type listedBot struct {
	line int    // of data/applications-bots.php
	name string // as the parser names it
	re   *regexp.Regexp
}

// loadBotList reads bots_whichbrowser.tsv: the quick filter, then the
// entries. A malformed file is a programming error.
func loadBotList(tsv string) (*regexp.Regexp, []listedBot) {
	var filter *regexp.Regexp
	var list []listedBot
	for n, line := range strings.Split(tsv, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		switch {
		case len(cols) == 2 && cols[0] == "prefilter":
			filter = phpRegexp(cols[1])
		case len(cols) == 3:
			var b listedBot
			if _, err := fmt.Sscanf(cols[0], "%d", &b.line); err != nil {
				panic(fmt.Sprintf("bots_whichbrowser.tsv:%d: line number %q: %v", n+1, cols[0], err))
			}
			b.name, b.re = cols[1], phpRegexp(cols[2])
			list = append(list, b)
		default:
			panic(fmt.Sprintf("bots_whichbrowser.tsv:%d: want 2 or 3 tab-separated columns, got %d", n+1, len(cols)))
		}
	}
	if filter == nil || len(list) == 0 {
		panic("bots_whichbrowser.tsv: no prefilter or no entries")
	}
	return filter, list
}

// phpRegexp compiles a PCRE pattern in PHP's notation ("/.../iu") whose
// syntax RE2 shares: the list uses no look-around and no back-reference.
// "u" (UTF-8) is Go's default; "i" ignores case.
func phpRegexp(p string) *regexp.Regexp {
	end := strings.LastIndexByte(p, '/')
	if !strings.HasPrefix(p, "/") || end <= 0 {
		panic(fmt.Sprintf("bots_whichbrowser.tsv: %q is not /pattern/flags", p))
	}
	pattern, flags := p[1:end], p[end+1:]
	if strings.Trim(flags, "iu") != "" {
		panic(fmt.Sprintf("bots_whichbrowser.tsv: %q: flags %q", p, flags))
	}
	if strings.Contains(flags, "i") {
		pattern = "(?i)" + pattern
	}
	return regexp.MustCompile(pattern)
}

// filterWords returns the words of the quick filter's pattern, which must
// be "(?i)(w1|w2|...)" with each word of lower-case letters, digits, " ",
// ".", "!", "_" and "-" (`\.` and `\!` escaped): a case-insensitive
// alternation of plain words. A pattern of another shape is a programming
// error.
func filterWords(pattern string) []string {
	inner, prefixed := strings.CutPrefix(pattern, "(?i)(")
	inner, suffixed := strings.CutSuffix(inner, ")")
	if !prefixed || !suffixed {
		panic(fmt.Sprintf("bots_whichbrowser.tsv: the quick filter %q is not /(...)/i", pattern))
	}
	words := strings.Split(strings.NewReplacer(`\.`, ".", `\!`, "!").Replace(inner), "|")
	for _, w := range words {
		if w == "" || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789 ._!-") != "" {
			panic(fmt.Sprintf("bots_whichbrowser.tsv: the quick filter's word %q is not plain", w))
		}
	}
	return words
}

// botFilterMatch reports whether botFilter matches ua, as its regexp does:
// (?i) lets a word's letter match either case, and also "k" the Kelvin
// sign (U+212A) and "s" the long s (U+017F), the only other runes whose
// case folds to an ASCII letter. Every other rune is left as it is: its
// bytes are all 0x80 or more and match no byte of a word.
func botFilterMatch(ua string) bool {
	var b strings.Builder
	b.Grow(len(ua))
	for _, r := range ua { // an invalid byte comes as U+FFFD
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteByte(byte(r) + 'a' - 'A')
		case r == '\u212a':
			b.WriteByte('k')
		case r == '\u017f':
			b.WriteByte('s')
		default:
			b.WriteRune(r)
		}
	}
	folded := b.String()
	for _, w := range botFilterWords {
		if strings.Contains(folded, w) {
			return true
		}
	}
	return false
}

// botName returns the name WhichBrowser gives the bot userAgent is, and
// whether it is one: the list's name, else "generic" for the two rules.
func botName(userAgent string) (string, bool) {
	ua := concatenatedUARE.ReplaceAllString(userAgent, "$1")
	name, bot := "", false
	if botURLRE.MatchString(ua) || botMarkerRE.MatchString(ua) && !cubotRE.MatchString(ua) {
		name, bot = "generic", true
	}
	if botFilterMatch(ua) {
		for _, b := range botList {
			if b.re.MatchString(ua) {
				return b.name, true
			}
		}
	}
	return name, bot
}

// IsBot reports whether the application classifies a user agent as a bot
// (see the top of this file), whose hits a website with exclude_bots = 1
// does not record.
func IsBot(userAgent string) bool {
	_, bot := botName(userAgent)
	return bot
}
