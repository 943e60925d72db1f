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
// whose account holds no website, on a plan without limits. The sequence
// creates and deletes websites with domains holding "df<seed>" (d7-df4.example.com),
// waits out the throttle's 429s, and deletes what it created at the end.
// It never runs in the tests.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/apprecord"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Getenv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "record-app-answers:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("record-app-answers", flag.ContinueOnError)
	base := fs.String("base-url", getenv("ANALYTICS_BASE_URL"),
		"the installation's URL, without /api/v1 (default $ANALYTICS_BASE_URL)")
	seed := fs.Int64("seed", 0, "the sequence's seed (required, not 0)")
	calls := fs.Int("calls", 150, "how many calls to send")
	accept := fs.Float64("accept", 0.85, "how often a value is one the application accepts; 0 draws from the whole range")
	out := fs.String("out", "", "the file to write (default websites-seed<seed>.json)")
	if err := fs.Parse(args); err != nil {
		return err
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
	if *out == "" {
		*out = fmt.Sprintf("websites-seed%d.json", *seed)
	}
	r := &apprecord.Recorder{Client: &http.Client{Timeout: time.Minute}, Base: *base, Key: key}
	f, err := r.Record(ctx, *seed, *calls, *accept)
	if err != nil {
		return err
	}
	raw, err := f.Encode()
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, raw, 0o600); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d calls\n", *out, len(f.Calls))
	return nil
}
