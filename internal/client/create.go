package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// CreateResult is the outcome of CreateWebsiteOnce.
type CreateResult struct {
	// Website is the stored website.
	Website *Website
	// Adopted reports that no usable answer to the create arrived, and the
	// website was found by its domain and recognised as made by this create.
	Adopted bool
	// Attempts is the number of POST requests sent (the transport's retries
	// of refused requests not counted).
	Attempts int
}

// CreateOutcomeUnknownError reports that a create may or may not have
// stored the website: an attempt failed without a clear answer, and the
// website could not be looked up afterwards.
type CreateOutcomeUnknownError struct {
	Domain   string
	Attempts int
	// Err is the last failure of the create; LookupErr why the lookup
	// failed.
	Err       error
	LookupErr error
}

// Error implements error.
func (e *CreateOutcomeUnknownError) Error() string {
	return fmt.Sprintf("could not tell whether the website %q was created: the create failed without a clear answer "+
		"after %d attempt(s) (%v), and looking the domain up afterwards failed too (%v). The website may exist on the "+
		"server although it is not in the Terraform state", e.Domain, e.Attempts, e.Err, e.LookupErr)
}

// lookupGrace bounds the lookup that settles a create whose outcome is
// unknown when the operation's deadline has already passed: one more short
// request is better than leaving a website the state does not know about.
const lookupGrace = 15 * time.Second

// CreateWebsiteOnce stores a website (POST /websites) and makes sure that
// retries never store it twice, nor lose one that was stored.
//
// A create is not blindly repeated: the transport retries a POST only when
// nothing can have been stored (a 429, a connection that was never made).
// When an attempt's outcome is unknown (connection reset or timeout after
// the request left, a 5xx the server may have sent after committing, a
// success whose body was cut or spoiled), CreateWebsiteOnce repeats the
// POST itself, with backoff, up to RetryOptions.MaxRetries times within
// ctx's deadline. Repeating is safe because domains are unique on the
// server: if the earlier attempt did store the website, the repeat is
// answered "The domain has already been taken." Once any attempt's outcome
// was unknown, every ending other than success (that answer included, and
// running out of retries) goes through a lookup of the domain, which
// decides with adoptionCheck whether the website found is the one this
// create made (adopted: Adopted is true) or one that existed before (the
// "already taken" validation error is returned, so the caller reports that
// the domain exists and should be imported). If the lookup fails, a
// *CreateOutcomeUnknownError says so.
//
// Without any unknown outcome, errors are returned as CreateWebsite
// returns them.
func (c *Client) CreateWebsiteOnce(ctx context.Context, in WebsiteInput) (*CreateResult, error) {
	before := time.Now()
	ctx, sent := withFirstSend(ctx)
	var unknown error // the last failure whose outcome is unknown
	for attempt := 1; ; attempt++ {
		w, err := c.CreateWebsite(ctx, in)
		if err == nil {
			return &CreateResult{Website: w, Attempts: attempt}, nil
		}
		fields := map[string]any{"domain": in.Domain, "attempt": attempt, "error": err.Error()}
		switch createOutcome(err) {
		case outcomeRejected:
			if unknown == nil {
				return nil, err
			}
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, err)
		case outcomeStored:
			c.log.Warn(ctx, "the website was created but the answer was unusable; looking it up", fields)
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, err)
		}
		unknown = err
		wait, ok := c.retryWait(ctx, attempt, err)
		if !ok {
			c.log.Warn(ctx, "create failed without a clear answer and no retry is left; looking the domain up", fields)
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, err)
		}
		fields["wait"] = wait.String()
		c.log.Warn(ctx, "create failed without a clear answer; repeating it (a website it stored makes the repeat answer \"already taken\")", fields)
		if err := sleepCtx(ctx, wait); err != nil {
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, unknown)
		}
	}
}

// settleUnknownCreate looks the domain up after a create whose outcome was
// unknown, and adopts the website if this create made it. last is the last
// failure, returned when nothing (or someone else's website) is found.
func (c *Client) settleUnknownCreate(ctx context.Context, in WebsiteInput, firstSent time.Time, attempts int, last error) (*CreateResult, error) {
	lctx := ctx
	if err := ctx.Err(); err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			return nil, &CreateOutcomeUnknownError{Domain: in.Domain, Attempts: attempts, Err: last, LookupErr: err}
		}
		var cancel context.CancelFunc
		lctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), lookupGrace)
		defer cancel()
	}
	w, err := c.FindWebsiteByDomain(lctx, in.Domain)
	if errors.Is(err, ErrNotFound) {
		// Nothing was stored for this user (a domain taken by another user
		// is not listed): the last failure stands, and nothing disagrees.
		return nil, last
	}
	if err != nil {
		return nil, &CreateOutcomeUnknownError{Domain: in.Domain, Attempts: attempts, Err: last, LookupErr: err}
	}
	offset, offsetKnown := c.clock.lowerBound()
	ok, why := adoptionCheck(w, in, firstSent, offset, offsetKnown)
	fields := map[string]any{"domain": in.Domain, "id": w.ID, "created_at": w.CreatedAt.Format(time.RFC3339),
		"first_attempt": firstSent.UTC().Format(time.RFC3339Nano), "reason": why}
	if ok {
		c.log.Info(ctx, "adopted the website this create stored although its answer was lost", fields)
		return &CreateResult{Website: w, Adopted: true, Attempts: attempts}, nil
	}
	c.log.Warn(ctx, "the domain belongs to a website that existed before this create; not adopting it", fields)
	if apiErr, ok := AsAPIError(last); ok && errors.Is(last, ErrValidation) && len(apiErr.Fields["domain"]) > 0 {
		return nil, last
	}
	// No attempt got the server's "already taken" answer (their answers were
	// lost), but the lookup shows the domain is taken: report it as the
	// server would have.
	return nil, &APIError{Kind: ErrValidation, Method: http.MethodPost, Path: "/websites",
		StatusCode: http.StatusUnprocessableEntity, Message: domainTakenMessage,
		Fields: map[string][]string{"domain": {domainTakenMessage}}}
}

// domainTakenMessage is the server's answer to a store of a domain that
// exists.
const domainTakenMessage = "The domain has already been taken."

// adoptionCheck decides whether w, found by its domain after a create whose
// outcome was unknown, is the website that create stored, or one that
// existed before it. firstSent is the local time the create's first attempt
// was sent; offset is a lower bound of (server clock - local clock), known
// from the Date headers of earlier answers.
//
// The reasoning:
//   - A website this create stored was stored after the first attempt left,
//     so its created_at (server clock, truncated to the second) is at or
//     after the server's time at firstSent, which is at least firstSent +
//     offset. A website that existed before was created before that moment.
//     The server's clock is what matters, not ours: created_at comes from
//     it, so the bound uses the Date header (offset: Date is truncated to
//     the second and read after the answer arrived, so Date - arrival is a
//     true lower bound of the offset). Without any Date header the clocks
//     are assumed to agree within 2 seconds (NTP).
//   - Only a website created during the last second or two before the first
//     attempt passes that test by accident. The second test narrows it: the
//     record must hold exactly the settings sent (privacy, e-mail reports,
//     bot exclusion, excluded IPs, whether a password is set) and must not
//     be a favorite (a new website never is). A website someone made at
//     the same moment with the very same settings is indistinguishable, and
//     adopting it is then harmless: the state describes it correctly.
//
// Refusing is the safe side: a website wrongly refused gives a clear "the
// domain already exists, import it" error; one wrongly adopted would put a
// foreign website under Terraform's management.
func adoptionCheck(w *Website, in WebsiteInput, firstSent time.Time, offset time.Duration, offsetKnown bool) (bool, string) {
	if w.CreatedAt.IsZero() {
		return false, "the record has no created_at, so its age cannot be told"
	}
	serverAtFirst := firstSent.Add(offset)
	if !offsetKnown {
		serverAtFirst = firstSent.Add(-2 * time.Second)
	}
	bound := serverAtFirst.Truncate(time.Second)
	if w.CreatedAt.Before(bound) {
		return false, fmt.Sprintf("it was created at %s, before this create's first attempt (server time %s)",
			w.CreatedAt.UTC().Format(time.RFC3339), bound.UTC().Format(time.RFC3339))
	}
	var diffs []string
	if w.Privacy == nil || *w.Privacy != in.Privacy {
		diffs = append(diffs, "privacy")
	}
	if w.Email == nil || (*w.Email != 0) != in.Email {
		diffs = append(diffs, "email")
	}
	if w.ExcludeBots == nil || (*w.ExcludeBots != 0) != in.ExcludeBots {
		diffs = append(diffs, "exclude_bots")
	}
	if !sameLines(w.ExcludeIPs, in.ExcludeIPs) {
		diffs = append(diffs, "exclude_ips")
	}
	// A nil Password is not sent, so the stored one cannot be predicted.
	if in.Password != nil && w.PasswordSet != (*in.Password != "") {
		diffs = append(diffs, "password")
	}
	if w.Favorite != nil && *w.Favorite {
		diffs = append(diffs, "favorite")
	}
	if len(diffs) > 0 {
		return false, fmt.Sprintf("its settings differ from the ones this create sent (%v)", diffs)
	}
	return true, fmt.Sprintf("created at %s, not before this create's first attempt (server time %s), with the settings it sent",
		w.CreatedAt.UTC().Format(time.RFC3339), bound.UTC().Format(time.RFC3339))
}

// sameLines compares a stored list with a sent one as sets of the lines the
// server keeps (split on line breaks, empty lines dropped).
func sameLines(stored, sent []string) bool {
	a := SplitLines(strings.Join(stored, "\n"))
	b := SplitLines(strings.Join(sent, "\n"))
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Outcomes of a failed create attempt.
const (
	outcomeRejected = iota // nothing was stored by this attempt
	outcomeStored          // it was stored, but the answer is unusable
	outcomeUnknown         // it may or may not have been stored
)

func createOutcome(err error) int {
	var de *DeadlineError
	if errors.As(err, &de) {
		return outcomeRejected // the transport gave up before sending
	}
	if apiErr, ok := AsAPIError(err); ok {
		switch s := apiErr.StatusCode; {
		case s >= 200 && s < 300:
			return outcomeStored
		case s >= 500:
			return outcomeUnknown
		default:
			return outcomeRejected // 4xx: refused (429 included: the throttle runs first)
		}
	}
	var be *bodyError
	if errors.As(err, &be) && be.Status >= 200 && be.Status < 300 {
		return outcomeStored
	}
	if isDialError(err) {
		return outcomeRejected
	}
	return outcomeUnknown
}

// UpdateWebsiteChecked is UpdateWebsite for servers that answer an update of
// an unknown id with 500 (older builds: 404). On such an answer it reads the
// website: if it is gone, that ErrNotFound error is returned; if it exists,
// the 500 was a real server failure, and the update, which sends every field
// and can be repeated safely, is retried with backoff up to
// RetryOptions.MaxRetries times within ctx's deadline.
func (c *Client) UpdateWebsiteChecked(ctx context.Context, id int64, in WebsiteInput) (*Website, error) {
	for attempt := 1; ; attempt++ {
		w, err := c.UpdateWebsite(ctx, id, in)
		if err == nil {
			return w, nil
		}
		apiErr, ok := AsAPIError(err)
		if !ok || (apiErr.StatusCode != http.StatusInternalServerError && !errors.Is(err, ErrNotFound)) {
			return nil, err
		}
		if _, getErr := c.GetWebsite(ctx, id); getErr != nil {
			if errors.Is(getErr, ErrNotFound) {
				return nil, getErr
			}
			return nil, err
		}
		if errors.Is(err, ErrNotFound) {
			return nil, err
		}
		wait, ok := c.retryWait(ctx, attempt, err)
		if !ok {
			return nil, err
		}
		c.log.Warn(ctx, "update answered HTTP 500 although the website exists; retrying it",
			map[string]any{"method": http.MethodPut, "path": websitePath(id), "attempt": attempt, "wait": wait.String()})
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// retryWait returns the wait before repeating a call that failed with err
// for the attempt-th time, and false when no retry is left or the wait would
// end past ctx's deadline.
func (c *Client) retryWait(ctx context.Context, attempt int, err error) (time.Duration, bool) {
	if attempt > c.retry.MaxRetries {
		return 0, false
	}
	wait := c.retry.backoff(attempt)
	if apiErr, ok := AsAPIError(err); ok && apiErr.RetryAfter > 0 {
		wait = apiErr.RetryAfter
	}
	if dl, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(dl) {
		return 0, false
	}
	return wait, true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// serverClock keeps a lower bound of the offset between the server's clock
// and the local one, from the Date headers of the answers.
type serverClock struct {
	mu    sync.Mutex
	known bool
	low   time.Duration
}

// observe records an answer's Date header, received at local time at.
func (sc *serverClock) observe(h http.Header, at time.Time) {
	d, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return
	}
	// The server wrote Date (truncated to the second) before the answer
	// arrived, so server - local >= Date - arrival.
	off := d.Sub(at)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	// Keep the largest bound; a much smaller one means the server's clock
	// was set back.
	if !sc.known || off > sc.low || off < sc.low-5*time.Second {
		sc.low, sc.known = off, true
	}
}

func (sc *serverClock) lowerBound() (time.Duration, bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.low, sc.known
}
