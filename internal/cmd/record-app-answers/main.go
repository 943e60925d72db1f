// Command record-app-answers records how a real phpAnalytics installation
// answers a seeded random sequence of Website API calls, for the emulator's
// replay test (internal/emulator/testdata/app-recordings, whose README
// describes the format).
//
//	ANALYTICS_API_KEY=... go run ./internal/cmd/record-app-answers \
//	  -base-url https://analytics.example.org -seed 4 -accept 0.85 \
//	  -out internal/emulator/testdata/app-recordings/websites-seed4.json
//
// The key (read from ANALYTICS_API_KEY only, never a flag) must be a user's
// whose account holds no website, on a plan without limits (checked with
// GET /account), on an installation where no other user holds a domain
// with "df<seed>" (domains are unique across users). It refuses to
// overwrite -out: this generator's sequence for a seed differs from the
// committed files' (an earlier tool made them), so a new recording gets a
// new file name. The sequence creates and deletes websites whose domains
// all hold "df<seed>" (d7-df4.example.com), follows no redirect, waits out
// the throttle's 429s, and deletes what it created at the end (after a
// store whose answer was lost, every listed website whose domain holds the df<seed> tag). It never
// runs in the tests. The replay test requires the three committed files
// and replays every further websites-seed<N>.json of that folder.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/apprecord"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	client := &http.Client{Timeout: time.Minute}
	if err := run(ctx, os.Args[1:], os.Stdout, os.Getenv, client); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "record-app-answers:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string, client *http.Client) error {
	flags := flag.NewFlagSet("record-app-answers", flag.ContinueOnError)
	flags.SetOutput(stdout)
	// The default is read after parsing, so that -h never shows
	// $ANALYTICS_BASE_URL (it may hold a user and password).
	base := flags.String("base-url", "", "the installation's URL, without /api/v1 (default $ANALYTICS_BASE_URL)")
	seed := flags.Int64("seed", 0, "the sequence's seed (required, not 0)")
	calls := flags.Int("calls", 150, "how many calls to send")
	accept := flags.Float64("accept", 0.85, "how often a value is one the application accepts; 0 draws from the whole range")
	out := flags.String("out", "", "the file to write, which must not exist (default websites-seed<seed>.json)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	baseFrom := "-base-url"
	if *base == "" {
		*base, baseFrom = getenv("ANALYTICS_BASE_URL"), "ANALYTICS_BASE_URL"
	}
	key := getenv("ANALYTICS_API_KEY")
	switch {
	case *base == "":
		return errors.New("no base URL: set -base-url or ANALYTICS_BASE_URL")
	case key == "":
		return errors.New("no API key: set ANALYTICS_API_KEY")
	case *seed == 0:
		return errors.New("no seed: set -seed to a number other than 0")
	case *calls < 1:
		return errors.New("-calls must be at least 1")
	case *accept < 0 || *accept > 1:
		return errors.New("-accept must be between 0 and 1")
	}
	if u, err := url.Parse(*base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// Never the value: it may hold a user and password.
		return fmt.Errorf("%s is no http or https URL with a host: set it to the installation's URL, "+
			"such as https://analytics.example.org", baseFrom)
	}
	if *out == "" {
		*out = fmt.Sprintf("websites-seed%d.json", *seed)
	}
	if _, err := os.Lstat(*out); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s exists (or cannot be checked: %v): choose a new -out; a recording is never "+
			"overwritten, as this generator's sequence for a seed differs from earlier tools'", *out, err)
	}
	r := &apprecord.Recorder{Client: client, Base: *base, Key: key}
	f, err := r.Record(ctx, *seed, *calls, *accept)
	if err != nil && (!errors.Is(err, apprecord.ErrCleanUp) || f == nil || len(f.Calls) != *calls) {
		return err
	}
	cleanUpErr := err // the recording is complete: write it, then report this
	raw, err := f.Encode()
	if err != nil {
		return errors.Join(err, cleanUpErr)
	}
	w, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return errors.Join(err, cleanUpErr)
	}
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return errors.Join(err, cleanUpErr)
	}
	if err := w.Close(); err != nil {
		return errors.Join(err, cleanUpErr)
	}
	fmt.Fprintf(stdout, "wrote %s: %d calls\n", *out, len(f.Calls))
	if cleanUpErr != nil {
		return fmt.Errorf("the recording is complete and written, but delete the websites left by hand: %w", cleanUpErr)
	}
	return nil
}
