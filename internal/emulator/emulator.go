// Package emulator is a local, quirk-faithful emulator of the phpAnalytics
// Website API (a Laravel 10 application). By default it answers like the
// newest real installation, quirks included, as README.md beside this file
// describes them; Options turn on the ways older builds differ, and Faults
// injects the failures of a real deployment.
//
// The emulator is an http.Handler. Tests usually start one per test with
// NewServer; the analytics-emulator command serves one as a standalone process.
package emulator

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator/tracking"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// DefaultAPIKey is the key of the single user an emulator has when
// Options.Users is empty. It is a fixed, public test key of 64 characters.
const DefaultAPIKey = "EmulatorDefaultApiKey0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"

// User is an account of the emulated installation.
type User struct {
	// Key is the user's API token (sent as "Authorization: Bearer <Key>").
	Key string
	// Plan, when set, is the user's plan: its features decide the website
	// limit and API access, and NoAPIAccess and WebsiteLimit are ignored.
	// Without it the user has the Default plan of a fresh installation,
	// shaped by the two fields below. See PlanNamed for the plans of a real
	// installation's users.
	Plan *Plan
	// NoAPIAccess makes every API call of the user fail with 403, as for a
	// plan without the API feature.
	NoAPIAccess bool
	// WebsiteLimit is the number of websites the user may create. 0 means
	// Options.DefaultWebsiteLimit (itself 0 = unlimited); a negative value
	// means unlimited whatever the default.
	WebsiteLimit int
	// ID, Name and Email are what GET /account returns. A zero ID is
	// assigned (1, 2, ... in the order of Options.Users); empty Name and
	// Email default to "User <id>" and "user<id>@example.test".
	ID    int64
	Name  string
	Email string
	// OverPageviewLimit is an account over its plan's pageviews: the
	// tracking endpoint records nothing for its websites (body "403").
	OverPageviewLimit bool
}

// Options configures an Emulator. The zero value is a real installation with
// one user (DefaultAPIKey), 10 results per page and no throttling.
type Options struct {
	// Users are the accounts. If empty, one user with DefaultAPIKey.
	Users []User
	// DefaultWebsiteLimit applies to users whose WebsiteLimit is 0.
	// 0 means unlimited.
	DefaultWebsiteLimit int
	// DefaultPerPage is the installation's page size, used when per_page is
	// absent or invalid. 0 means 10.
	DefaultPerPage int
	// RateLimit is the number of requests per window per client IP.
	// 0 turns throttling off (then no X-RateLimit headers are sent).
	RateLimit int
	// RateWindow is the length of the fixed throttle window. 0 means a minute.
	RateWindow time.Duration
	// LegacyUpdateNotFound answers an update of an unknown or foreign id with
	// 404 "Resource not found." like older builds, instead of the 500 of
	// current builds.
	LegacyUpdateNotFound bool
	// OmitFavorite emulates an older build: records have no favorite and
	// favorited_at fields and the list ignores the favorite filter.
	OmitFavorite bool
	// BannedWords are refused in domains ("The domain contains a banned
	// word."), matched case-insensitively as substrings.
	BannedWords []string
	// LoginURL is where unauthenticated non-JSON requests are redirected.
	// Empty means "https://<request Host><PathPrefix>/login".
	LoginURL string
	// PathPrefix is where the application is installed, e.g. "/analytics"
	// for a base URL of https://example.com/analytics. Empty means the root.
	PathPrefix string
	// NoTrimStrings turns off the emulation of Laravel's TrimStrings
	// middleware, which every real installation runs (so the default,
	// false, trims): input strings other than password (and
	// password_confirmation, current_password) are trimmed at both ends
	// before validation, inner white space kept. Empty strings become NULL
	// either way (ConvertEmptyStringsToNull, which cannot be turned off), so
	// a value sent as "" or, with trimming, as "  " is stored as NULL.
	NoTrimStrings bool
	// NoAccountEndpoint emulates an older build without GET /api/v1/account,
	// which then answers the API's fallback 404 "Resource not found.".
	NoAccountEndpoint bool
	// NoStatisticsEndpoint emulates an older build without GET
	// /api/v1/stats/{id}, which then answers every id, known or not, with
	// the API's fallback 404 "Resource not found.".
	NoStatisticsEndpoint bool
	// StateFile, if set, persists the websites as JSON. It is loaded by New
	// and rewritten atomically (temporary file and rename) after every change.
	StateFile string
	// Clock gives the current time for timestamps, throttle windows and the
	// Date header. nil means time.Now.
	Clock func() time.Time
	// Faults, if set, injects failures into API answers (see Faults);
	// SetFaults changes it at run time.
	Faults *Faults
}

// Website is a stored website record, with everything the database holds
// (including what the API never returns, like the password and
// exclude_params). Its settings are wire.Settings, which wire.Columns
// describes.
type Website struct {
	ID     int64  `json:"id"`
	Owner  string `json:"owner"` // the owner's user key
	Domain string `json:"domain"`
	wire.Settings
	Favorite bool `json:"favorite"`
	// FavoritedAt is zero when NULL.
	FavoritedAt time.Time `json:"favorited_at"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// clone returns a deep copy of w.
func (w Website) clone() Website {
	w.Settings = wire.Clone(w.Settings)
	return w
}

// Emulator is the emulated installation. It is an http.Handler and safe for
// concurrent use.
type Emulator struct {
	opts     Options
	throttle *throttle
	stats    statsRecorder
	faults   atomic.Pointer[faultInjector] // nil: no fault injection
	// maintenance is SetMaintenance's switch.
	maintenance atomic.Bool

	mu         sync.Mutex // guards the fields below
	users      map[string]User
	websites   map[int64]*Website
	statistics map[int64]map[statKey]int // by website id, see statistics.go
	nextID     int64
	lastUserID int64 // the largest user id assigned
	persistErr error
}

// New returns an emulator configured by opts, loading opts.StateFile if it
// exists.
func New(opts Options) (*Emulator, error) {
	if opts.DefaultPerPage < 0 {
		return nil, errors.New("emulator: negative DefaultPerPage")
	}
	if opts.DefaultPerPage == 0 {
		opts.DefaultPerPage = 10
	}
	if opts.RateLimit < 0 {
		return nil, errors.New("emulator: negative RateLimit")
	}
	if opts.RateWindow < 0 {
		return nil, errors.New("emulator: negative RateWindow")
	}
	if opts.RateWindow == 0 {
		opts.RateWindow = time.Minute
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	for len(opts.PathPrefix) > 0 && opts.PathPrefix[len(opts.PathPrefix)-1] == '/' {
		opts.PathPrefix = opts.PathPrefix[:len(opts.PathPrefix)-1]
	}
	if opts.PathPrefix != "" && opts.PathPrefix[0] != '/' {
		opts.PathPrefix = "/" + opts.PathPrefix
	}
	opts.BannedWords = append([]string(nil), opts.BannedWords...)

	e := &Emulator{
		opts:     opts,
		users:    map[string]User{},
		websites: map[int64]*Website{},
		nextID:   1,

		statistics: map[int64]map[statKey]int{},
	}
	e.throttle = newThrottle(opts.RateLimit, opts.RateWindow)
	e.stats.reset()
	if err := e.SetFaults(opts.Faults); err != nil {
		return nil, err
	}
	users := opts.Users
	if len(users) == 0 {
		users = []User{{Key: DefaultAPIKey}}
	}
	for _, u := range users {
		if u.Key == "" {
			return nil, errors.New("emulator: user with an empty key")
		}
		e.addUserLocked(u)
	}
	if opts.StateFile != "" {
		if err := e.load(); err != nil {
			return nil, fmt.Errorf("emulator: loading state: %w", err)
		}
	}
	return e, nil
}

// now returns the clock's time in UTC, truncated to the second as MySQL
// TIMESTAMP columns store it.
func (e *Emulator) now() time.Time {
	return e.opts.Clock().UTC().Truncate(time.Second)
}

// AddUser adds a user, or replaces the user with the same key. A user with an
// empty key is ignored.
func (e *Emulator) AddUser(u User) {
	if u.Key == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.addUserLocked(u)
}

// user returns the user whose key is key.
func (e *Emulator) user(key string) (User, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	u, ok := e.users[key]
	return u, ok
}

// Seed stores w for owner (a user's API key) as a raw database insert would,
// and returns it as stored, with its id: no input middleware (nothing
// trimmed, "" is NULL as in Website), no domain canonicalisation, no
// validation (so a domain may be stored twice, a website limit exceeded,
// or an owner that is no user given). A zero ID takes the next id; zero
// timestamps take the current time; a favorite without FavoritedAt gets
// the current time. Seeding an existing ID replaces that website. A failed
// write of the state file is reported by PersistError.
func (e *Emulator) Seed(owner string, w Website) Website {
	e.mu.Lock()
	defer e.mu.Unlock()
	w = w.clone()
	w.Owner = owner
	now := e.now()
	if w.ID <= 0 {
		w.ID = e.nextID
	}
	if w.ID >= e.nextID {
		e.nextID = w.ID + 1
	}
	if w.CreatedAt.IsZero() {
		w.CreatedAt = now
	}
	if w.UpdatedAt.IsZero() {
		w.UpdatedAt = w.CreatedAt
	}
	if w.Favorite && w.FavoritedAt.IsZero() {
		w.FavoritedAt = now
	}
	stored := w.clone()
	e.websites[w.ID] = &stored
	_ = e.persistLocked() // recorded in e.persistErr
	return w
}

// Website returns the stored website with id, whoever owns it, with
// everything stored (see Websites).
func (e *Emulator) Website(id int64) (Website, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	w, ok := e.websites[id]
	if !ok {
		return Website{}, false
	}
	return w.clone(), true
}

// Websites returns every stored website of every user, by id, with
// everything stored, including what the API never returns (Password,
// ExcludeParams) and websites that share a domain.
func (e *Emulator) Websites() []Website {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Website, 0, len(e.websites))
	for _, w := range e.websites {
		out = append(out, w.clone())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// UpdateWebsite changes a website behind the clients' back (as a user of the
// web interface would). fn gets a copy to modify; the ID cannot change.
// UpdatedAt is set to the current time unless fn changed it itself. It
// reports whether the website exists.
func (e *Emulator) UpdateWebsite(id int64, fn func(*Website)) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	cur, ok := e.websites[id]
	if !ok {
		return false
	}
	w := cur.clone()
	if fn != nil {
		fn(&w)
	}
	w.ID = id
	if w.UpdatedAt.Equal(cur.UpdatedAt) {
		w.UpdatedAt = e.now()
	}
	e.websites[id] = &w
	_ = e.persistLocked() // recorded in e.persistErr
	return true
}

// DeleteWebsite deletes a website, and its statistics, behind the clients'
// back. It reports whether the website existed.
func (e *Emulator) DeleteWebsite(id int64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.websites[id]; !ok {
		return false
	}
	delete(e.websites, id)
	delete(e.statistics, id)
	_ = e.persistLocked() // recorded in e.persistErr
	return true
}

// SetRateLimit changes the throttle at run time: n requests per window per
// client IP (n = 0 turns it off; window 0 means a minute). Current windows
// are forgotten.
func (e *Emulator) SetRateLimit(n int, window time.Duration) {
	if window <= 0 {
		window = time.Minute
	}
	e.throttle.set(max(n, 0), window)
}

// PersistError returns the error of the last failed write of the state file,
// or nil. A failed write during an API call also answers that call with 500
// and leaves the state as it was.
func (e *Emulator) PersistError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.persistErr
}

// ServeHTTP serves the emulator's control endpoints GET /__emulator/stats
// and POST /__emulator/reset-stats, then the tracking script at
// <PathPrefix>/js/script.js (a static file: no key, no throttle, not
// counted, not faulted, served in maintenance mode too), then CORS
// preflights on <PathPrefix>/api/* (package tracking: before maintenance and the
// throttle, never faulted), then the maintenance 503 if the installation
// is down (see SetMaintenance), then the API under <PathPrefix>/api/v1 with
// the faults of Options.Faults or SetFaults, if any, and the tracking
// endpoint (other paths get Laravel's route 404, see Respond).
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e.serveControl(w, r) || tracking.ServeScript(w, r, e.opts.PathPrefix) {
		return
	}
	if resp := e.preflight(r); resp != nil {
		e.send(w, resp)
		return
	}
	if e.serveMaintenance(w, r) {
		return
	}
	e.serveAPI(w, r)
}
