package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Faults configures fault injection: the failures of a real deployment
// (restarts, proxies, overload, flaky networks) that a client must survive.
// The zero value injects nothing.
//
// Rates are probabilities per API request, between 0 and 1. At most one
// fault kind is drawn per request, in the order of the fields below (their
// rates should add up to at most 1); latency comes on top. The draws come
// from one random source seeded with Seed, so a run that sends the same
// requests in the same order meets the same faults.
//
// Faults apply only to requests under /api/v1 (not to the emulator's own
// /__emulator endpoints), except Maintenance, which answers every request.
// Kinds that fail "before routing" never reach the throttle or the
// controllers: nothing is committed and Stats does not count them. Kinds
// that fail "after routing" answer (and commit) as usual, then lose or spoil
// the answer on its way back. FaultCounts counts what was injected.
type Faults struct {
	// Seed seeds the random draws.
	Seed uint64
	// Latency delays every API answer; LatencyJitter adds a random extra
	// delay up to its value.
	Latency       time.Duration
	LatencyJitter time.Duration
	// Methods restricts the fault kinds below (not latency) to these HTTP
	// methods, e.g. {"POST"}. Empty means every method.
	Methods []string
	// MaxFaults stops injecting faults (other than latency and a 429 burst
	// under way) after this many. 0 means no limit; 1 with a rate of 1
	// fails exactly the first matching request.
	MaxFaults int

	// ErrorRate answers, before routing, with one of ErrorStatuses (default
	// 500, 502 and 503, drawn evenly): 500 {"message": "Server Error"}, 502
	// a proxy's HTML page, 503 {"message": "Service Unavailable"} (JSON
	// pretty-printed as Laravel's exception handler does).
	ErrorRate     float64
	ErrorStatuses []int
	// ThrottleRate starts a 429 burst before routing: for ThrottleFor
	// (default 1s) every API request is answered 429 "Too Many Attempts."
	// with Retry-After (whole seconds, rounded up) and X-RateLimit-Reset, as
	// when other clients behind the same IP use up the throttle.
	ThrottleRate float64
	ThrottleFor  time.Duration
	// ResetBeforeRate resets the TCP connection before routing (nothing
	// committed, no answer).
	ResetBeforeRate float64
	// ResetAfterRate routes the request (committing any change), then
	// resets the connection instead of answering.
	ResetAfterRate float64
	// ErrorAfterCommitRate routes the request (committing any change), then
	// answers 502 Bad Gateway instead, as a proxy whose upstream answered too
	// late.
	ErrorAfterCommitRate float64
	// TruncateRate routes the request, then sends the status line, the
	// headers (with the full Content-Length) and half of the body, and
	// closes the connection.
	TruncateRate float64
	// MalformedRate routes the request, then replaces the body of a
	// successful (2xx) answer by malformed JSON (its first half followed by
	// a PHP warning), with a matching Content-Length. Other answers are sent
	// unchanged.
	MalformedRate float64
	// SlowBodyRate routes the request, then sends the body in SlowBodyChunks
	// pieces (default 4) with SlowBodyDelay (default 20ms) between them.
	SlowBodyRate   float64
	SlowBodyDelay  time.Duration
	SlowBodyChunks int

	// Maintenance answers every request (API or not, but not the
	// emulator's /__emulator endpoints) 503 {"message":"Service Unavailable"}
	// (an HTML page without Accept: application/json), as `php artisan
	// down` does during an upgrade, before the throttle and the router:
	// nothing is committed and nothing is counted in Stats; FaultCounts
	// counts these answers. SetMaintenance is the same switch without
	// fault injection.
	Maintenance bool
	// SlowCommit makes a store validate under the lock (the domain's
	// uniqueness and the website limit included), release the lock, sleep
	// this long, then insert without checking again and answer 201 as
	// usual. The real database has no unique index on domain: uniqueness
	// is only a validation rule, so a second store of the same domain that
	// arrives meanwhile passes it too, and both are stored (two websites,
	// one domain; likewise the website limit can be exceeded). The insert
	// happens even if the client has gone. SlowCommitCount limits it to the
	// first N stores that pass validation (0: every store). It applies
	// whatever Methods and MaxFaults say, and FaultCounts counts it.
	SlowCommit      time.Duration
	SlowCommitCount int
	// SlowCommitHold, when set, is called in place of SlowCommit's sleep
	// (with the lock released, for the same stores): the insert waits
	// until it returns. Tests block in it until they release the store, so
	// that a late commit comes exactly when they choose, not after a
	// duration that a loaded machine can stretch. It cannot be parsed.
	SlowCommitHold func()
}

// Fault kinds, as counted by FaultCounts and named in ParseFaults.
const (
	FaultError            = "error"
	FaultThrottle         = "throttle"
	FaultResetBefore      = "reset-before"
	FaultResetAfter       = "reset-after"
	FaultErrorAfterCommit = "error-after-commit"
	FaultTruncate         = "truncate"
	FaultMalformed        = "malformed"
	FaultSlowBody         = "slow-body"
	FaultLatency          = "latency"
	FaultMaintenance      = "maintenance"
	FaultSlowCommit       = "slow-commit"
)

// validate checks the rates and fills in defaults.
func (f Faults) normalized() (Faults, error) {
	total := 0.0
	for _, r := range []struct {
		name string
		v    float64
	}{
		{FaultError, f.ErrorRate}, {FaultThrottle, f.ThrottleRate}, {FaultResetBefore, f.ResetBeforeRate},
		{FaultResetAfter, f.ResetAfterRate}, {FaultErrorAfterCommit, f.ErrorAfterCommitRate},
		{FaultTruncate, f.TruncateRate}, {FaultMalformed, f.MalformedRate}, {FaultSlowBody, f.SlowBodyRate},
	} {
		if r.v < 0 || r.v > 1 {
			return f, fmt.Errorf("emulator: fault rate %s = %v is not between 0 and 1", r.name, r.v)
		}
		total += r.v
	}
	if total > 1+1e-9 {
		return f, fmt.Errorf("emulator: fault rates add up to %v, more than 1", total)
	}
	if f.Latency < 0 || f.LatencyJitter < 0 || f.ThrottleFor < 0 || f.SlowBodyDelay < 0 || f.SlowBodyChunks < 0 || f.MaxFaults < 0 ||
		f.SlowCommit < 0 || f.SlowCommitCount < 0 {
		return f, fmt.Errorf("emulator: negative fault duration or count")
	}
	if len(f.ErrorStatuses) == 0 {
		f.ErrorStatuses = []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable}
	}
	for _, s := range f.ErrorStatuses {
		if s < 500 || s > 599 {
			return f, fmt.Errorf("emulator: fault error status %d is not a 5xx", s)
		}
	}
	f.ErrorStatuses = slices.Clone(f.ErrorStatuses)
	if f.ThrottleFor == 0 {
		f.ThrottleFor = time.Second
	}
	if f.SlowBodyDelay == 0 {
		f.SlowBodyDelay = 20 * time.Millisecond
	}
	if f.SlowBodyChunks == 0 {
		f.SlowBodyChunks = 4
	}
	methods := make([]string, len(f.Methods))
	for i, m := range f.Methods {
		methods[i] = strings.ToUpper(strings.TrimSpace(m))
	}
	f.Methods = methods
	return f, nil
}

// ParseFaults parses a fault specification: comma-separated key=value
// pairs, as the analytics-emulator command's -faults flag takes them.
//
//	seed=N latency=DUR jitter=DUR methods=POST+PUT max=N
//	error=RATE error-statuses=500+503 throttle=RATE throttle-for=DUR
//	reset-before=RATE reset-after=RATE error-after-commit=RATE
//	truncate=RATE malformed=RATE slow-body=RATE slow-delay=DUR slow-chunks=N
//	maintenance=true slow-commit=DUR slow-commits=N
//
// For example "seed=7,latency=5ms,error=0.05,reset-after=0.02". An empty
// spec returns nil (no faults).
func ParseFaults(spec string) (*Faults, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	f := &Faults{}
	rates := map[string]*float64{
		FaultError: &f.ErrorRate, FaultThrottle: &f.ThrottleRate, FaultResetBefore: &f.ResetBeforeRate,
		FaultResetAfter: &f.ResetAfterRate, FaultErrorAfterCommit: &f.ErrorAfterCommitRate,
		FaultTruncate: &f.TruncateRate, FaultMalformed: &f.MalformedRate, FaultSlowBody: &f.SlowBodyRate,
	}
	durations := map[string]*time.Duration{
		"latency": &f.Latency, "jitter": &f.LatencyJitter, "throttle-for": &f.ThrottleFor, "slow-delay": &f.SlowBodyDelay,
	}
	for part := range strings.SplitSeq(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("fault %q: want key=value", part)
		}
		var err error
		switch {
		case rates[k] != nil:
			*rates[k], err = strconv.ParseFloat(v, 64)
		case durations[k] != nil:
			*durations[k], err = time.ParseDuration(v)
		case k == "seed":
			f.Seed, err = strconv.ParseUint(v, 10, 64)
		case k == "slow-chunks":
			f.SlowBodyChunks, err = strconv.Atoi(v)
		case k == FaultSlowCommit:
			f.SlowCommit, err = time.ParseDuration(v)
		case k == "slow-commits":
			f.SlowCommitCount, err = strconv.Atoi(v)
		case k == FaultMaintenance:
			f.Maintenance, err = strconv.ParseBool(v)
		case k == "max":
			f.MaxFaults, err = strconv.Atoi(v)
		case k == "methods":
			f.Methods = strings.Split(v, "+")
		case k == "error-statuses":
			for s := range strings.SplitSeq(v, "+") {
				n, perr := strconv.Atoi(s)
				if perr != nil {
					err = perr
					break
				}
				f.ErrorStatuses = append(f.ErrorStatuses, n)
			}
		default:
			keys := []string{"seed", "latency", "jitter", "methods", "max", "error-statuses", "throttle-for", "slow-delay", "slow-chunks",
				FaultMaintenance, FaultSlowCommit, "slow-commits"}
			for r := range rates {
				keys = append(keys, r)
			}
			sort.Strings(keys)
			return nil, fmt.Errorf("unknown fault %q (known: %s)", k, strings.Join(keys, ", "))
		}
		if err != nil {
			return nil, fmt.Errorf("fault %s=%q: %w", k, v, err)
		}
	}
	if _, err := f.normalized(); err != nil {
		return nil, err
	}
	return f, nil
}
