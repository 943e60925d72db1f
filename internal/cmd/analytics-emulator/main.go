// Command analytics-emulator serves the local emulator of the phpAnalytics
// Website API as a standalone process.
//
//	analytics-emulator -addr 127.0.0.1:8099 -api-key KEY [-api-key KEY2 ...]
//
// It prints "analytics-emulator: listening on http://HOST:PORT" once ready
// (the port may be 0, the line shows the one chosen), logs requests to stderr
// with -v (with api_token and password query values masked: it prints no key
// or password), and stops cleanly on SIGINT or SIGTERM.
//
// It also serves the tracking endpoint (POST /api/event, no key), which
// records statistics the way a website's tracking script does, e.g.
//
//	curl -A 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' \
//	  -d page=https://example.com/landing http://HOST:PORT/api/event
//
// (curl's own user agent is a bot's, which a website excluding bots, the
// default, does not record: the body says 403), and GET /api/v1/stats/{id}
// reads them; -state-file keeps them too. The tracking code's script is
// at GET /js/script.js (the emulator's own, see internal/emulator/README.md):
// a page that carries a website's tracking_code sends its pageviews here
// from a real browser, after a CORS preflight that the emulator answers.
//
// By default it answers like the newest real installation; -help lists the
// flags that emulate older builds, and -faults (see emulator.ParseFaults)
// injects failures for reliability testing.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "analytics-emulator:", err)
		os.Exit(1)
	}
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// config is the parsed command line.
type config struct {
	addr    string
	verbose bool
	opts    emulator.Options
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("analytics-emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		c            config
		keys         stringList
		noAccessKeys stringList
		plans        stringList
		banned       stringList
		faults       string
		websiteLimit int
	)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8099", "listen address (port 0 picks a free port)")
	fs.Var(&keys, "api-key", "API key of a user (repeatable; default the emulator's DefaultAPIKey)")
	fs.Var(&noAccessKeys, "no-api-access-key", "API key of a user whose plan lacks API access (repeatable)")
	fs.Var(&plans, "plan", "KEY=PLAN: a user and its plan, one of "+strings.Join(emulator.PlanNames(), ", ")+
		" (repeatable; a key also given to -api-key gets this plan)")
	fs.IntVar(&c.opts.RateLimit, "rate-limit", 0, "requests per window per client IP (0 = off)")
	fs.DurationVar(&c.opts.RateWindow, "rate-window", time.Minute, "throttle window")
	fs.IntVar(&c.opts.DefaultPerPage, "per-page", 10, "the installation's default page size")
	fs.IntVar(&websiteLimit, "website-limit", 0, "websites each user may create (0 = unlimited)")
	fs.StringVar(&c.opts.StateFile, "state-file", "", "JSON file keeping the websites and their statistics across restarts")
	fs.BoolVar(&c.opts.OmitFavorite, "omit-favorite", false, "emulate an older build without favorite fields")
	fs.BoolVar(&c.opts.LegacyUpdateNotFound, "legacy-update-404", false, "answer an update of an unknown id with 404 (older builds) instead of 500")
	fs.Var(&banned, "banned-word", "word refused in domains (repeatable)")
	fs.StringVar(&c.opts.LoginURL, "login-url", "", "redirect target of unauthenticated non-JSON requests (default https://HOST/login)")
	fs.StringVar(&c.opts.PathPrefix, "path-prefix", "", "installation path, e.g. /analytics")
	fs.BoolVar(&c.opts.NoTrimStrings, "no-trim-strings", false, "turn off the emulation of Laravel's TrimStrings middleware (on in every real installation)")
	fs.BoolVar(&c.opts.NoAccountEndpoint, "no-account-endpoint", false, "emulate an older build without GET /api/v1/account")
	fs.BoolVar(&c.opts.NoStatisticsEndpoint, "no-statistics-endpoint", false, "emulate an older build without GET /api/v1/stats/{id}")
	fs.BoolVar(&c.verbose, "v", false, "log requests to stderr")
	fs.StringVar(&faults, "faults", "", "inject faults: comma-separated key=value pairs, e.g. "+
		"'seed=7,latency=5ms,jitter=5ms,error=0.05,throttle=0.01,throttle-for=1s,reset-before=0.02,"+
		"reset-after=0.02,error-after-commit=0.02,truncate=0.02,malformed=0.02,slow-body=0.05,methods=POST+PUT'; "+
		"'maintenance=true' answers every request 503 (php artisan down); "+
		"'slow-commit=2s,slow-commits=1' lets overlapping stores of one domain both succeed")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if len(keys) == 0 && len(noAccessKeys) == 0 && len(plans) == 0 {
		keys = stringList{emulator.DefaultAPIKey}
	}
	for _, k := range keys {
		c.opts.Users = append(c.opts.Users, emulator.User{Key: k})
	}
	for _, k := range noAccessKeys {
		c.opts.Users = append(c.opts.Users, emulator.User{Key: k, NoAPIAccess: true})
	}
	if err := addPlans(&c.opts, plans); err != nil {
		return c, err
	}
	c.opts.DefaultWebsiteLimit = max(websiteLimit, 0)
	c.opts.BannedWords = banned
	f, err := emulator.ParseFaults(faults)
	if err != nil {
		return c, fmt.Errorf("-faults: %w", err)
	}
	c.opts.Faults = f
	return c, nil
}

// addPlans gives each KEY=PLAN of the -plan flags its plan, adding the user
// when no other flag named the key.
func addPlans(opts *emulator.Options, plans []string) error {
	for _, kp := range plans {
		i := strings.LastIndex(kp, "=")
		if i <= 0 {
			// Not quoted: the value is most likely an API key alone.
			return fmt.Errorf("-plan: want KEY=PLAN (an API key, \"=\", a plan name), PLAN one of %s",
				strings.Join(emulator.PlanNames(), ", "))
		}
		p, ok := emulator.PlanNamed(kp[i+1:])
		if !ok {
			return fmt.Errorf("-plan KEY=PLAN: unknown plan %q: want one of %s", kp[i+1:], strings.Join(emulator.PlanNames(), ", "))
		}
		key, found := kp[:i], false
		for j := range opts.Users {
			if opts.Users[j].Key == key {
				opts.Users[j].Plan, found = &p, true
			}
		}
		if !found {
			opts.Users = append(opts.Users, emulator.User{Key: key, Plan: &p})
		}
	}
	return nil
}

// run serves until ctx is done, then shuts the server down.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	emu, err := emulator.New(c.opts)
	if err != nil {
		return err
	}
	var h http.Handler = emu
	if c.verbose {
		h = logRequests(h, log.New(stderr, "analytics-emulator: ", log.LstdFlags|log.Lmicroseconds))
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", c.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(stderr, "analytics-emulator: ", log.LstdFlags),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if _, err := fmt.Fprintf(stdout, "analytics-emulator: listening on http://%s\n", ln.Addr()); err != nil {
		_ = srv.Close()
		return err
	}
	if f, ok := stdout.(interface{ Sync() error }); ok {
		_ = f.Sync() // best effort: a pipe cannot be synced
	}

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// statusWriter records the status code of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// logRequests logs one line per request, without secrets (see logURI).
func logRequests(h http.Handler, l *log.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		l.Printf("%s %s %s %d %s", r.RemoteAddr, r.Method, logURI(r.URL), sw.status, time.Since(start).Round(time.Microsecond))
	})
}

// secretParams are the query parameters logURI masks: the API key (which
// the application also accepts there) and passwords.
var secretParams = []string{"api_token", "password"}

// logURI is u's path and query with the values of secretParams replaced by
// "REDACTED".
func logURI(u *url.URL) string {
	if u.RawQuery == "" {
		return u.RequestURI()
	}
	pairs := strings.Split(u.RawQuery, "&")
	for i, pair := range pairs {
		k, _, ok := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		if ok && slices.Contains(secretParams, name) {
			pairs[i] = k + "=REDACTED"
		}
	}
	c := *u
	c.RawQuery = strings.Join(pairs, "&")
	return c.RequestURI()
}
