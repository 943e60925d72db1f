//go:build browser

package provider

// The Chromium side of the browser tests (browser_test.go): a page server
// on loopback, and one visit of a page in a new headless Chromium, with
// the browser's own user agent (headless Chromium's says "HeadlessChrome",
// a visitor like any other to the application) unless a test presents
// another.
//
// Nothing leaves the machine. Chromium resolves the tests' host names
// (www.shop-<random>.test, analytics.test) to 127.0.0.1 and every other
// name to "not found" (--host-resolver-rules), uses no proxy and runs
// without its background services (chromedp's defaults and the flags
// below); the page, the script and the tracking endpoint are all on
// loopback, and each visit lists every request of the page, which the
// tests check with checkLoopbackOnly. (Chromium still probes whether IPv6
// is reachable by connecting a UDP socket to a public address, which sends
// no packet.)

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
)

const (
	// chromiumPath is Debian's chromium (apt-get install chromium).
	chromiumPath = "/usr/bin/chromium"

	// hostResolverRules maps the tests' .test names to loopback and every
	// other name to "not found"; 127.0.0.1 (the emulator and the page
	// server) is used as it is.
	hostResolverRules = "MAP *.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"

	// browserTimeout bounds one visit, from Chromium's start to its exit.
	browserTimeout = 90 * time.Second

	// pagePath and pageQuery are the visited page.
	pagePath  = "/landing"
	pageQuery = "utm_source=x&keep=1"
)

// site is a website's page server on loopback: it answers any host name,
// serving pagePath as an HTML page with head in its <head>.
type site struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string // "Host RequestURI" of every request
}

func serveSite(t *testing.T, head string) *site {
	t.Helper()
	s := &site{}
	page := "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Landing</title>\n" + head +
		"\n</head>\n<body>\n<h1>Landing</h1>\n</body>\n</html>\n"
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Host+" "+r.RequestURI)
		s.mu.Unlock()
		if r.URL.Path != pagePath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// pageURL is the page's address at host (www.<domain>, which Chromium
// maps to loopback), with the query the test visits.
func (s *site) pageURL(host string) string {
	_, port, _ := net.SplitHostPort(s.srv.Listener.Addr().String())
	return "http://" + host + ":" + port + pagePath + "?" + pageQuery
}

// served reports whether the server answered the request of pageURL, with
// its host name.
func (s *site) served(pageURL string) bool {
	u, err := url.Parse(pageURL)
	if err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.seen, u.Host+" "+u.RequestURI())
}

// visit is what a page looked like once its tracking script had run.
type visit struct {
	// Tracked is the data-tracked attribute the emulator's script sets on
	// its element: "sent", "dnt" or "failed".
	Tracked string
	// DoNotTrack is navigator.doNotTrack as the page saw it ("null" when
	// the browser reports nothing).
	DoNotTrack string
	// UserAgent is navigator.userAgent.
	UserAgent string
	// Screen is window.screen as "WIDTHxHEIGHT".
	Screen string
	// Requests are the URLs of every request of the page.
	Requests []string
	// Events is what became of each POST of the page to the tracking
	// endpoint, in the order sent: "HTTP <status>" or the network error.
	Events []string
}

// visitOptions say how to open a page.
type visitOptions struct {
	// doNotTrack sets the profile's "Send a Do Not Track request"
	// preference, so that navigator.doNotTrack is "1".
	doNotTrack bool
	// doNotTrackValue, if set, is what navigator.doNotTrack says instead
	// (e.g. "unspecified", as some browsers report), by a script run
	// before the page's.
	doNotTrackValue string
	// userAgent replaces the browser's own user agent ("": keep it).
	userAgent string
	// then is JavaScript run in the page once its tracking script has
	// sent its first pageview (a single-page navigation, a custom event).
	then string
	// posts is the number of POSTs to the tracking endpoint to wait for
	// once the script says "sent" (0 means 1).
	posts int
}

// visitInChromium opens pageURL in a new headless Chromium with a fresh
// profile in dir, waits until the tracking script has run (and, if it
// sent anything, until o.posts requests to the tracking endpoint have
// completed), and returns what the page saw. An error carries Chromium's
// output.
func visitInChromium(ctx context.Context, dir, pageURL string, o visitOptions) (*visit, error) {
	if o.doNotTrack {
		// The profile's preference behind Settings > Privacy and security >
		// "Send a Do Not Track request with your browsing traffic".
		if err := os.MkdirAll(filepath.Join(dir, "Default"), 0o700); err != nil {
			return nil, err
		}
		prefs, err := json.Marshal(map[string]any{"enable_do_not_track": true})
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "Default", "Preferences"), prefs, 0o600); err != nil {
			return nil, err
		}
	}
	var output bytes.Buffer
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.UserDataDir(dir),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("no-proxy-server", true),
		chromedp.Flag("host-resolver-rules", hostResolverRules),
		chromedp.WindowSize(1280, 720),
		chromedp.CombinedOutput(&output),
	)
	if o.userAgent != "" {
		opts = append(opts, chromedp.UserAgent(o.userAgent))
	}
	posts := max(o.posts, 1)
	ctx, cancel := context.WithTimeout(ctx, browserTimeout)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()

	v := &visit{}
	var (
		mu       sync.Mutex
		posted   = map[network.RequestID]int{} // the tracking POSTs, by request, to their index in v.Events
		statuses = map[network.RequestID]int64{}
		finished = make(chan struct{}, 64)
	)
	// outcome records what became of a tracking POST, once.
	outcome := func(id network.RequestID, what string) {
		if i, ok := posted[id]; ok && v.Events[i] == "" {
			v.Events[i] = what
			finished <- struct{}{}
		}
	}
	err := chromedp.Listen(tab, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			v.Requests = append(v.Requests, e.Request.URL)
			u, err := url.Parse(e.Request.URL)
			if _, seen := posted[e.RequestID]; err == nil && !seen && e.Request.Method == http.MethodPost &&
				strings.HasSuffix(u.Path, "/api/event") {
				posted[e.RequestID] = len(v.Events)
				v.Events = append(v.Events, "")
			}
		case *network.EventResponseReceived:
			if e.Response != nil {
				statuses[e.RequestID] = e.Response.Status
			}
		case *network.EventLoadingFinished:
			outcome(e.RequestID, fmt.Sprintf("HTTP %d", statuses[e.RequestID]))
		case *network.EventLoadingFailed:
			outcome(e.RequestID, "failed: "+e.ErrorText)
		}
	})
	if err == nil && o.doNotTrackValue != "" {
		src := fmt.Sprintf(`Object.defineProperty(Navigator.prototype, "doNotTrack", {get: function () { return %q; }});`,
			o.doNotTrackValue)
		err = chromedp.Do(tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
			return err
		}))
	}
	if err == nil {
		err = chromedp.Do(tab, chromedp.Navigate(pageURL))
	}
	if err == nil {
		v.Tracked, err = chromedp.Run(tab, chromedp.Poll[string](
			`(function () { var e = document.getElementById("`+tracking.ScriptID+`"); return e && e.getAttribute("data-tracked"); })()`,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
		if errors.Is(err, chromedp.ErrPollingTimeout) {
			err = fmt.Errorf("the tracking script did not run within 30 s (no data-tracked on #%s): %w", tracking.ScriptID, err)
		}
	}
	for _, js := range []struct {
		dst  *string
		expr string
	}{
		{&v.DoNotTrack, `String(navigator.doNotTrack)`},
		{&v.UserAgent, `navigator.userAgent`},
		{&v.Screen, `window.screen.width + "x" + window.screen.height`},
	} {
		if err == nil {
			*js.dst, err = chromedp.Run(tab, chromedp.Evaluate[string](js.expr))
		}
	}
	if err == nil && o.then != "" {
		err = chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](o.then))
	}
	if err == nil && v.Tracked == "sent" {
		// The browser closes when this returns: wait for the requests the
		// script sent to complete first.
		for n := 0; n < posts && err == nil; n++ {
			select {
			case <-finished:
			case <-time.After(30 * time.Second):
				err = fmt.Errorf("%d of %d requests to the tracking endpoint completed within 30 s", n, posts)
			case <-ctx.Done():
				err = ctx.Err()
			}
		}
	}
	cancelTab()
	cancelAlloc() // waits for Chromium to exit
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		return v, fmt.Errorf("chromium, %s: %w\nchromium's output:\n%s", pageURL, err, output.String())
	}
	return v, nil
}

// checkLoopbackOnly fails unless every URL is on loopback: 127.0.0.1 or a
// .test name (which Chromium maps there).
func checkLoopbackOnly(urls []string) error {
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil {
			return fmt.Errorf("the page requested %q: %w", raw, err)
		}
		if h := u.Hostname(); h != "127.0.0.1" && !strings.HasSuffix(h, ".test") {
			return fmt.Errorf("the page requested %s, off loopback", raw)
		}
	}
	return nil
}
