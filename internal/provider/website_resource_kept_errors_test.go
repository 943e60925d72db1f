package provider

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/acctest"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// The kept-restore errors say what the read
// showed, for one kept website. Two websites kept with one domain (the
// application has no unique index on domains: a duplicate an earlier race
// left, both managed, both skip_destroy) get the create's own error in
// front of the kept sentence, as before the fix. Here b (depends on a) is
// removed from the configuration and a is tainted: the destroys keep both
// (b first, then a), and a's replacement's POST gets a 500. The lookup finds
// the two kept websites, made before this create: a DuplicateCreateError.
// The error then says "Website Created Twice ... a create that outlived its
// time limit and was sent again stored the website twice ... Delete the
// extra website in the web interface": this create stored nothing (both
// websites held the domain before it was sent), and the user is told to
// delete one of two websites that were managed a moment ago, with their
// statistics.
func TestAccWebsite_twoKeptDuplicateNoDeleteAdvice(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores; seeds two websites with one domain")
	var on atomic.Bool
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(failStores(&on)))
	w := acctest.NewWorkdir(t)
	domain, id1, id2 := twoKeptPlan(t, env, w, "two-kept-dup", "max_retries = 0")
	out, flat, code := applyArmed(w, &on)
	held := domainHolders(t, env, domain)
	if len(held) != 2 {
		t.Fatalf("the server holds %v with the domain, want the two kept websites %d and %d", held, id1, id2)
	}
	if !strings.Contains(flat, "kept 2 websites") {
		t.Fatalf("the apply (exit code %d) did not keep both websites (the scenario did not happen):\n%s", code, out)
	}
	for _, lie := range []string{"stored the website twice", "Delete the extra website", "may still have stored one"} {
		if strings.Contains(flat, lie) {
			t.Errorf("websites %d and %d were kept by this apply and held the domain before the create; nothing "+
				"was stored, yet the error (exit code %d) says %q:\n%s", id1, id2, code, lie, out)
		}
	}
	for _, id := range held {
		_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
	}
}

// interruptChildCLI sends SIGINT (Ctrl-C) to this test process's child
// processes that run in dir: the CLI the test runs in its Workdir, never
// another test's, which may run beside it.
func interruptChildCLI(t *testing.T, dir *string) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Error(err)
		return 0
	}
	n := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
		fields := strings.Fields(rest)
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err != nil || cwd != *dir {
			continue
		}
		if syscall.Kill(pid, syscall.SIGINT) == nil {
			n++
		}
	}
	return n
}

// cancelAt429 answers the stores (POST /websites) with a 429 whose
// Retry-After (300 s) outlasts any delay, while armed (Store(true)), and
// interrupts the Workdir's CLI once the provider logs that it waits the
// 429 out: its retry wait has begun, so the cancel ends that wait and
// never races the answer's arrival.
type cancelAt429 struct {
	atomic.Bool // armed
	sent        atomic.Bool
	t           *testing.T
	dir, log    string
}

// newCancelAt429 sets w's CLI to log the provider's warnings to a file.
func newCancelAt429(t *testing.T, w *acctest.Workdir) *cancelAt429 {
	c := &cancelAt429{t: t, dir: w.Dir(), log: filepath.Join(t.TempDir(), "tf.log")}
	w.Env = append(w.Env, "TF_LOG_PROVIDER=WARN", "TF_LOG_PATH="+c.log)
	return c
}

// wrap is the handler in front of the emulator (acctest.Wrap).
func (c *cancelAt429) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !c.Load() || r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/api/v1/websites") {
			next.ServeHTTP(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "application/json")
		rw.Header().Set("Retry-After", "300")
		rw.WriteHeader(http.StatusTooManyRequests)
		_, _ = rw.Write([]byte(`{"message":"Too Many Attempts."}`))
		if !c.sent.Swap(true) {
			go func() {
				if !awaitLogLine(c.t, c.log, "retrying request") {
					c.t.Error("the provider never logged its retry wait")
				}
				if interruptChildCLI(c.t, &c.dir) == 0 {
					c.t.Error("no CLI to interrupt")
				}
			}()
		}
	})
}

// holdStore holds the stores (POST /websites) while armed (Store(true)):
// each store reaches the application (its body is read), the first one
// interrupts the Workdir's CLI (after onSent, when set: what happens
// while the store runs), and each is answered 500 once the client gives
// up on it (or after a minute). Once a store was sent, a website's read
// (GET /websites/<id>) hangs likewise, a slow server, when slowRead is
// set and says so. Set onSent and slowRead before arming it.
type holdStore struct {
	atomic.Bool // armed
	sent        atomic.Bool
	t           *testing.T
	dir         string
	onSent      func()
	slowRead    func() bool
}

func newHoldStore(t *testing.T, w *acctest.Workdir) *holdStore {
	return &holdStore{t: t, dir: w.Dir()}
}

var websiteReadPath = regexp.MustCompile(`/api/v1/websites/\d+$`)

// wrap is the handler in front of the emulator (acctest.Wrap).
func (h *holdStore) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if h.Load() && h.sent.Load() && r.Method == http.MethodGet && websiteReadPath.MatchString(r.URL.Path) &&
			h.slowRead != nil && h.slowRead() {
			untilGivenUp(r)
			return
		}
		if !h.Load() || r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/api/v1/websites") {
			next.ServeHTTP(rw, r)
			return
		}
		// The store reached the application; Ctrl-C while it works.
		_, _ = io.Copy(io.Discard, r.Body) // then the server notices a closed connection
		if !h.sent.Swap(true) {
			if h.onSent != nil {
				h.onSent()
			}
			if interruptChildCLI(h.t, &h.dir) == 0 {
				h.t.Error("no CLI to interrupt")
			}
		}
		untilGivenUp(r)
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(http.StatusInternalServerError)
		_, _ = rw.Write([]byte(`{"message":"Server Error"}`))
	})
}

// wantInterruptedKeepingBoth stops the test unless the apply (its output
// out, flat and exit code) was interrupted during a store h held, after
// keeping both websites.
func (h *holdStore) wantInterruptedKeepingBoth(t *testing.T, out, flat string, code int) {
	t.Helper()
	if !h.sent.Load() || !strings.Contains(flat, "Interrupt received") || !strings.Contains(flat, "kept 2 websites") {
		t.Fatalf("the apply (exit code %d) was not interrupted during the store after keeping both websites (the "+
			"scenario did not happen):\n%s", code, out)
	}
}

// applyArmed applies w's tfplan with on armed (Store(true), Store(false)
// after). It returns the apply's output, the same with its words joined
// by single spaces, and its exit code.
func applyArmed(w *acctest.Workdir, on interface{ Store(bool) }) (out, flat string, code int) {
	on.Store(true)
	out, code = w.Run("apply", "-no-color", "tfplan")
	on.Store(false)
	return out, strings.Join(strings.Fields(out), " "), code
}

// untilGivenUp waits until the client gives up on r, for at most a minute.
func untilGivenUp(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(time.Minute):
	}
}

// awaitLogLine waits until the file at path holds line, for at most a
// minute (the event it waits for follows within milliseconds).
func awaitLogLine(t *testing.T, path, line string) bool {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	limit := time.After(time.Minute)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), line) {
			return true
		}
		select {
		case <-tick.C:
		case <-limit:
			return false
		case <-t.Context().Done():
			return false
		}
	}
}

// A create cancelled (Ctrl-C) while its only
// request waits out a 429's Retry-After stored nothing, and says so:
// "Create Cancelled ... no website was stored. Nothing was recorded in the
// state; apply again to create it." When skip_destroy kept the tainted
// website with the domain in this apply, the restore puts it back into the
// state and appends "it is back in this resource's state" to that very
// error: the error says both that nothing was recorded in the state and
// that the website is in it, and tells the user to apply again "to create
// it", which replaces the tainted website again and is refused again.
func TestAccWebsite_keptRestoredAfterCancelSaysBackInState(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to the store and interrupts the CLI")
	w := acctest.NewWorkdir(t)
	on := newCancelAt429(t, w)
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(on.wrap))
	domain := env.Domain("kept-cancel")
	w.Write("main.tf", env.ProviderBlock()+fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
}
`, domain))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.MustRun(0, "plan", "-out=tfplan")
	on.Store(true)
	out, code := w.Run("apply", "tfplan")
	on.Store(false)
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "Create Cancelled") {
		t.Fatalf("the apply (exit code %d) was not cancelled during the create (the scenario did not happen):\n%s",
			code, out)
	}
	if strings.Contains(flat, "back in this resource's state") || strings.Contains(flat, "now in this resource's state") {
		for _, lie := range []string{"Nothing was recorded in the state", "apply again to create it"} {
			if strings.Contains(flat, lie) {
				t.Errorf("the kept website %d is back in the state, yet the error (exit code %d) says %q:\n%s",
					id, code, lie, out)
			}
		}
	}
	wantKeptInState(t, env, w, domain, id, out, code, "a cancelled create")
}

// The kept website and a duplicate with its
// domain; the replacement's POST gets a 500, the lookup afterwards finds
// both (made before the create): a DuplicateCreateError whose ids include
// the kept website. The read of the kept website then fails (503), so the
// restore takes the unread branch: "Website May Have Been Created ... If
// another writer deleted it meanwhile, the create may have stored a new
// website". But the lookup, made after the create, found the kept website:
// it held the domain throughout, so nothing was stored, which the error
// could say (as the readable branch does); and the other website the
// lookup found is not named apart, as otherHolders does in that branch.
func TestAccWebsite_keptUnreadAfterDuplicateSaysNothingStored(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 500 to the stores and 503 to the kept website's read")
	var on atomic.Bool
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			post := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/api/v1/websites")
			get := r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/api/v1/websites/")
			if on.Load() && (post || get) {
				status, body := http.StatusInternalServerError, `{"message":"Server Error"}`
				if get {
					status, body = http.StatusServiceUnavailable, `{"message":"Service Unavailable"}`
				}
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(status)
				_, _ = rw.Write([]byte(body))
				return
			}
			next.ServeHTTP(rw, r)
		})
	}
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(wrap))
	name := "kept-dup-unread"
	var dup int64
	w, domain, id, out, code := keptApply(t, env, name, func(arm bool) {
		if arm {
			dup = env.Seed(env.Key, emulator.Website{Domain: env.Domain(name), CreatedAt: time.Now().Add(-time.Hour)}).ID
		}
		on.Store(arm)
	})
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, fmt.Sprintf("ids %d, %d", min(id, dup), max(id, dup))) {
		t.Fatalf("the lookup did not report both websites (the scenario did not happen; exit code %d):\n%s", code, out)
	}
	for _, lie := range []string{"May Have Been Created", "may have stored a new website"} {
		if strings.Contains(flat, lie) {
			t.Errorf("the lookup after the create found the kept website %d, so it held the domain throughout and "+
				"nothing was stored, yet the error (exit code %d) says %q:\n%s", id, code, lie, out)
		}
	}
	if !strings.Contains(flat, fmt.Sprintf("Website %d", dup)) {
		t.Errorf("the error does not name the other website %d apart (exit code %d):\n%s", dup, code, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), dup)
	wantKeptInState(t, env, w, domain, id, out, code, "a duplicate outcome and an unread kept website")
}

// twoKeptEnv starts an emulator (its users on a plan without limits)
// with wrap in front of it, and saves twoKeptPlan's plan (a domain from
// name) in w. It returns the emulator and the two kept websites' ids.
func twoKeptEnv(t *testing.T, w *acctest.Workdir, wrap func(http.Handler) http.Handler, name string) (*acctest.Env,
	int64, int64,
) {
	t.Helper()
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(wrap))
	_, id1, id2 := twoKeptPlan(t, env, w, name)
	return env, id1, id2
}

// twoKeptPlan seeds two websites with one new domain, as an earlier race
// can leave them, imports them into analytics_website.a and .b (both
// skip_destroy), then leaves a alone in the configuration, tainted, and
// saves the plan of its replacement to tfplan: the apply deletes b and a
// (kept, both) and creates the domain again. settings go into the
// provider block. It returns the domain and the two ids.
func twoKeptPlan(t *testing.T, env *acctest.Env, w *acctest.Workdir, name string, settings ...string) (domain string,
	id1, id2 int64,
) {
	t.Helper()
	domain = env.Domain(name)
	old := time.Now().Add(-time.Hour)
	id1 = env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old}).ID
	id2 = env.Seed(env.Key, emulator.Website{Domain: domain, CreatedAt: old}).ID
	a := fmt.Sprintf(`resource "analytics_website" "a" {
  domain       = %q
  skip_destroy = true
}
`, domain)
	w.Write("main.tf", env.ProviderBlock(settings...)+a+importPair(id1, id2)+fmt.Sprintf(`resource "analytics_website" "b" {
  domain       = %q
  skip_destroy = true
  depends_on   = [analytics_website.a]
}
`, domain))
	w.MustRun(0, "apply", "-auto-approve")
	w.Write("main.tf", env.ProviderBlock(settings...)+a)
	w.MustRun(0, "taint", "analytics_website.a")
	w.MustRun(0, "plan", "-out=tfplan")
	t.Cleanup(func() {
		for _, id := range []int64{id1, id2} {
			_ = env.API(env.Key).DeleteWebsite(context.Background(), id)
		}
	})
	return domain, id1, id2
}

// A create cancelled before any request
// reached the application, after skip_destroy kept its domain's website,
// no longer says "apply again to create it" (the replacement cannot
// succeed while the kept website holds the domain). With two websites kept
// with the domain (a duplicate an earlier race left, both managed, both
// skip_destroy), the cancel still gets the create's own error: "Create
// Cancelled ... apply again to create it", followed by "kept 2 websites".
// Applying again creates the domain again, and the server refuses it.
func TestAccWebsite_twoKeptCancelNotToldApplyAgain(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to the store, interrupts the CLI, seeds two websites with one domain")
	w := acctest.NewWorkdir(t)
	on := newCancelAt429(t, w)
	_, id1, id2 := twoKeptEnv(t, w, on.wrap, "two-kept-cancel")
	out, flat, code := applyArmed(w, on)
	if !strings.Contains(flat, "Interrupt received") || !strings.Contains(flat, "kept 2 websites") ||
		!strings.Contains(flat, "Create Cancelled") {
		t.Fatalf("the apply (exit code %d) was not cancelled during the create after keeping both websites (the "+
			"scenario did not happen):\n%s", code, out)
	}
	// The cancel came during the 429 wait: no request reached the
	// application, and no create can succeed while the kept websites
	// hold the domain ("Create Cancelled" alone also
	// matched the in-flight error).
	for _, wrong := range []string{"apply again", "May Have Been Created"} {
		if strings.Contains(flat, wrong) {
			t.Errorf("websites %d and %d, kept by this apply, hold the domain, and the create was cancelled before "+
				"its request was sent, yet the error (exit code %d) says %q:\n%s", id1, id2, code, wrong, out)
		}
	}
}

// The same with one kept website that this
// resource does not hold as kept: tainted and given another setting in the
// same plan (exclude_bots), so the restore finds another configuration.
// The cancelled create's own error said "apply again to create it", though
// the kept website holds the domain and the create is refused again. After
// the interrupt nothing is updated: the website is put back as kept.
func TestAccWebsite_keptOtherConfigCancelNotToldApplyAgain(t *testing.T) {
	acctest.NeedsEmulator(t, "answers 429 to the store and interrupts the CLI")
	w := acctest.NewWorkdir(t)
	on := newCancelAt429(t, w)
	env := acctest.New(t, acctest.Emulator(planUsers(t, keyUnlimitedPlan)), acctest.Wrap(on.wrap))
	domain := env.Domain("kept-other-cancel")
	hcl := func(bots bool) string {
		return env.ProviderBlock() + fmt.Sprintf(`resource "analytics_website" "test" {
  domain       = %q
  skip_destroy = true
  exclude_bots = %t
}
`, domain, bots)
	}
	w.Write("main.tf", hcl(true))
	w.MustRun(0, "apply", "-auto-approve")
	id := env.MustWebsite(t, domain).ID
	w.MustRun(0, "taint", websiteAddr)
	w.Write("main.tf", hcl(false))
	w.MustRun(0, "plan", "-out=tfplan")
	out, flat, code := applyArmed(w, on)
	if !strings.Contains(flat, "Interrupt received") || !strings.Contains(flat, "Create Cancelled") {
		t.Fatalf("the apply (exit code %d) was not cancelled during the create after keeping the website with "+
			"another configuration (the scenario did not happen):\n%s", code, out)
	}
	// No update after the interrupt: the website is put back as kept.
	if ids := stateIDs(t, w.Read("terraform.tfstate")); ids["test"] != fmt.Sprint(id) || strings.Contains(flat, "Website Taken Over") {
		t.Errorf("after the interrupt, want website %d put back as kept, not taken over (state ids %v):\n%s", id, ids, out)
	}
	if ws, _ := env.Website(id); ws.ExcludeBots == nil || *ws.ExcludeBots != 1 {
		t.Errorf("website %d was updated after the interrupt", id)
	}
	if strings.Contains(flat, "apply again to create it") {
		t.Errorf("website %d, kept by this apply, holds the domain: a create cannot succeed, yet the error "+
			"(exit code %d) says \"apply again to create it\":\n%s", id, code, out)
	}
	_ = env.API(env.Key).DeleteWebsite(t.Context(), id)
}

// TestAccWebsite_twoKeptCancelNotToldApplyAgain made a cancelled create that
// reached no one stop saying "apply again to create it" while websites
// skip_destroy kept hold its domain. A cancel that comes once the store has
// reached the application (Ctrl-C while the server works on it) is an
// unknown outcome, and with two kept websites the restore reads them to
// learn whether they held the domain throughout (keptStillHeld). After a
// Ctrl-C those reads ran on the cancelled context, so they failed at once,
// and the error was the create's own: "Create Cancelled; Website May Have
// Been Created ... otherwise apply again", followed by "kept 2 websites".
// Both kept websites held the domain before the store was sent (the server
// refuses a held domain), so applying again is refused again, and the
// import by domain it suggested is ambiguous. The reads now get a grace
// after a cancel (restoreContext).
func TestAccWebsite_twoKeptCancelInFlightNotToldApplyAgain(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store, interrupts the CLI, seeds two websites with one domain")
	w := acctest.NewWorkdir(t)
	hold := newHoldStore(t, w)
	_, id1, id2 := twoKeptEnv(t, w, hold.wrap, "two-kept-inflight")
	out, flat, code := applyArmed(w, hold)
	hold.wantInterruptedKeepingBoth(t, out, flat, code)
	for _, lie := range []string{"otherwise apply again", "apply again to create it"} {
		if strings.Contains(flat, lie) {
			t.Errorf("websites %d and %d, kept by this apply, held the domain before the store was sent: a create "+
				"is refused while they hold it, yet the error (exit code %d) says %q:\n%s", id1, id2, code, lie, out)
		}
	}
}

// TestAccWebsite_twoKeptCancelInFlightNotToldApplyAgain's case (two websites kept, Ctrl-C
// while the store is in flight) with a server that is slow right then (the
// reason one presses Ctrl-C): the reads of the kept websites, given
// cancelGrace (5 s) each, time out. keptStillHeld then finds nothing, and
// the error is again the create's own: "import it (terraform import
// <address> <domain> ...) before applying again; otherwise apply again".
// Both kept websites held the domain before the store was sent, so the
// create is refused again, and the import by domain is ambiguous. The
// one-kept path says what it knows when its read fails ("It could not be
// read ... While it holds the domain, the server stores no other website
// with it"); the two-kept path does not. The apply ends 2 x cancelGrace
// after the interrupt (logged). Now the error says what it knows, and
// the reads share one grace.
func TestAccWebsite_twoKeptCancelUnreadSaysDomainHeld(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store and the reads after it, interrupts the CLI")
	w := acctest.NewWorkdir(t)
	hold := newHoldStore(t, w)
	hold.slowRead = func() bool { return true } // the server is slow now
	var interrupted atomic.Int64
	hold.onSent = func() { interrupted.Store(time.Now().UnixNano()) }
	_, id1, id2 := twoKeptEnv(t, w, hold.wrap, "two-kept-slow")
	out, flat, code := applyArmed(w, hold)
	took := time.Since(time.Unix(0, interrupted.Load()))
	if !hold.sent.Load() || !strings.Contains(flat, "Interrupt received") {
		t.Fatalf("the apply (exit code %d) was not interrupted during the store (the scenario did not happen):\n%s",
			code, out)
	}
	t.Logf("interrupted apply ended %s after the interrupt (exit code %d):\n%s", took.Round(time.Millisecond), code, out)
	if !strings.Contains(flat, "Not all of them could be read") || !strings.Contains(flat, "stores no other website") {
		t.Errorf("the error (exit code %d) does not say that the kept websites could not be read, and that while "+
			"one holds the domain no other website is stored:\n%s", code, out)
	}
	for _, lie := range []string{"otherwise apply again", "apply again to create it"} {
		if strings.Contains(flat, lie) {
			t.Errorf("websites %d and %d, kept by this apply, held the domain before the store was sent, yet the "+
				"error (exit code %d) says %q", id1, id2, code, lie)
		}
	}
}

// Two
// websites kept by skip_destroy, a create cancelled in flight, and both
// kept websites deleted by another writer meanwhile. The restore reads
// them (keptStillHeld): both answer 404 for the key's user, who made
// them. The one-kept path then says that the kept website is gone, so a
// new website may have been stored. The several-kept path appends to the
// create's own error "To manage it with this resource, import it: an
// import block with id = "<id1>" or "<id2>"", ids that the reads just
// showed gone: that import fails.
func TestAccWebsite_twoKeptGoneNoImportOfGoneIDs(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store, deletes the kept websites, interrupts the CLI")
	w := acctest.NewWorkdir(t)
	hold := newHoldStore(t, w)
	env, id1, id2 := twoKeptEnv(t, w, hold.wrap, "two-kept-gone")
	hold.onSent = func() {
		// Another writer deletes both kept websites while the store runs.
		for _, id := range []int64{id1, id2} {
			if err := env.API(env.Key).DeleteWebsite(context.Background(), id); err != nil {
				t.Errorf("delete %d: %v", id, err)
			}
		}
	}
	out, flat, code := applyArmed(w, hold)
	hold.wantInterruptedKeepingBoth(t, out, flat, code)
	// The errors only: the apply's plan warned, when both websites were
	// there, to import one of them.
	errs := flat[strings.Index(flat, "Error:"):]
	if !strings.Contains(errs, "Reads show them gone now") {
		t.Errorf("the error (exit code %d) does not say that the kept websites are gone:\n%s", code, out)
	}
	for _, id := range []int64{id1, id2} {
		if c := fmt.Sprintf("id = \"%d\"", id); strings.Contains(errs, c) {
			t.Errorf("website %d was deleted, and the restore's read answered 404, yet the error (exit code %d) "+
				"advises an import block with %s:\n%s", id, code, c, out)
		}
	}
}

// The reads of the kept websites after a create
// cancelled in flight now share one grace (5 s), one after the other. When
// the first kept website's read hangs (a slow server), it uses the whole
// grace, and the second read, which would answer at once and show its
// website still holding the domain, fails unsent. The error then says
// "Not all of them could be read ... the create may have stored a new
// website: check the web interface" where, with a grace per read (c3ba2e8),
// it said that a read shows a kept website still there, so no new website
// can have been stored. Reads made at once within the one grace would
// keep both the bound and the answer.
func TestAccWebsite_twoKeptHungReadKeepsHeldAnswer(t *testing.T) {
	acctest.NeedsEmulator(t, "holds the store and the first read after it, interrupts the CLI")
	w := acctest.NewWorkdir(t)
	hold := newHoldStore(t, w)
	var firstRead atomic.Bool
	// One website's read is slow; the other answers at once.
	hold.slowRead = func() bool { return !firstRead.Swap(true) }
	_, id1, id2 := twoKeptEnv(t, w, hold.wrap, "two-kept-grace")
	out, flat, code := applyArmed(w, hold)
	if !hold.sent.Load() || !firstRead.Load() || !strings.Contains(flat, "Interrupt received") {
		t.Fatalf("the apply (exit code %d) was not interrupted during the store, or read no kept website (the "+
			"scenario did not happen):\n%s", code, out)
	}
	if !strings.Contains(flat, "No new website can have been stored") {
		t.Errorf("websites %d and %d were kept; one read hung, the other would have shown its website still "+
			"there, yet the error (exit code %d) does not say that no new website can have been stored:\n%s",
			id1, id2, code, out)
	}
}
