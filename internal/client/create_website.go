package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// CreateResult is the outcome of CreateWebsite.
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

// lookupGrace bounds the lookups that settle a create after the operation's
// deadline has passed (see lookupContext).
const lookupGrace = 15 * time.Second

// CreateWebsite stores a website (POST /websites) and makes sure that
// retries never store it twice, nor lose one that was stored.
//
// The strategy. The application has no unique index on domains: its "The
// domain has already been taken." is a validation rule checked before the
// insert, so two stores of one domain that overlap on the server both
// succeed. A store whose answer was lost (the client's time limit, a reset
// connection, a proxy's 502/504) may still be running on the server, and
// re-sending it at once can make a duplicate. So:
//
//  1. The transport repeats a POST only when nothing can have been stored
//     (a 429: the throttle runs first; a connection never made).
//  2. After an attempt whose outcome is unknown, the domain is looked up,
//     and, while the server may still be running that attempt (no answer
//     came from the application itself), looked up again, until the website
//     appears or the settle window (Options.CreateSettle, by default twice
//     the per-request time limit, counted from when the attempt was sent)
//     has passed. A website found is adopted if adoptionCheck says this
//     create made it (Adopted is true); one that existed before gets the
//     "already taken" error, so the caller says to import it.
//  3. Only when nothing appeared is the store sent again, with backoff, up
//     to RetryOptions.MaxRetries times within ctx's deadline.
//  4. Every create that saw an unknown outcome ends with a lookup of every
//     website with the domain. Extra ones that this create made (same
//     settings, created after its first attempt) are deleted, keeping the
//     one whose answer arrived (else the oldest); if any extra one is not
//     this create's, or cannot be deleted, a *DuplicateCreateError names
//     them all and nothing is deleted.
//
// A store that outlives the settle window can still land after the last
// lookup; step 2's window is what bounds that risk, which is why it follows
// the time limit of a request.
//
// Without any unknown outcome, errors are the single attempt's
// (createWebsite). If a lookup fails, a *CreateOutcomeUnknownError says so.
// A cancel of ctx comes back as ctx's error itself only when no attempt can
// have reached the application (nothing was stored); after one that may
// have, it is a *CreateOutcomeUnknownError whose LookupErr is the cancel.
func (c *Client) CreateWebsite(ctx context.Context, in WebsiteInput) (*CreateResult, error) {
	before := time.Now()
	ctx, sent := withFirstSend(ctx)
	var unknown error // the last failure whose outcome is unknown
	for attempt := 1; ; attempt++ {
		attemptStart := time.Now()
		w, err := c.createWebsite(ctx, in)
		if err == nil {
			if unknown == nil {
				return &CreateResult{Website: w, Attempts: attempt}, nil
			}
			return c.settleDuplicates(ctx, in, sent.time(before), &CreateResult{Website: w, Attempts: attempt})
		}
		if unknown == nil && !sent.reachedApp() {
			// No attempt can have reached the application (none left the
			// pacer, or each got a 429 or no connection): nothing can have
			// been stored, whatever ended the call (a cancel during a
			// Retry-After wait, say).
			return nil, err
		}
		fields := map[string]any{"domain": in.Domain, "attempt": attempt, "error": err.Error()}
		switch createOutcome(err) {
		case outcomeRejected:
			if unknown == nil {
				return nil, err
			}
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, attempt-1, err)
		case outcomeStored:
			c.log.Warn(ctx, "the website was created but the answer was unusable; looking it up", fields)
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, attempt, err)
		}
		unknown = err
		found, lookupErr := c.awaitStore(ctx, in.Domain, attemptStart, mayStillRun(err))
		if lookupErr != nil || found {
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, attempt, err)
		}
		wait, ok := c.retryWait(ctx, attempt, err)
		if !ok {
			c.log.Warn(ctx, "create failed without a clear answer and no retry is left; looking the domain up", fields)
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, attempt, err)
		}
		fields["wait"] = wait.String()
		c.log.Warn(ctx, "create failed without a clear answer and the website did not appear; sending it again", fields)
		if err := Sleep(ctx, wait); err != nil {
			return c.settleUnknownCreate(ctx, in, sent.time(before), attempt, attempt, unknown)
		}
	}
}

// mayStillRun reports whether the server may still be running a store that
// failed with err: no answer came from the application itself (a network
// failure or time limit, or a proxy's 502 or 504).
func mayStillRun(err error) bool {
	if apiErr, ok := AsAPIError(err); ok {
		return apiErr.StatusCode == http.StatusBadGateway || apiErr.StatusCode == http.StatusGatewayTimeout
	}
	return true
}

// createSettle is how long after a store was sent it may still land.
func (c *Client) createSettle() time.Duration {
	if c.settle > 0 {
		return c.settle
	}
	return 2 * c.attemptTimeout
}

// awaitStore looks the domain up until a website with it appears (found),
// or, when the store may still be running (wait), until the settle window
// after sentAt has passed, bounded by ctx's deadline. Without wait it looks
// once.
func (c *Client) awaitStore(ctx context.Context, domain string, sentAt time.Time, wait bool) (found bool, err error) {
	deadline := sentAt.Add(c.createSettle())
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	interval := min(max(c.createSettle()/8, 100*time.Millisecond), 5*time.Second)
	for {
		ws, err := c.findWebsitesByDomain(ctx, domain)
		if err != nil {
			return false, err
		}
		if len(ws) > 0 {
			return true, nil
		}
		if !wait || time.Now().Add(interval).After(deadline) {
			if wait {
				c.log.Info(ctx, "the website did not appear within the time a store may take on the server",
					map[string]any{"domain": domain, "settle": c.createSettle().String()})
			}
			return false, nil
		}
		if err := Sleep(ctx, interval); err != nil {
			return false, nil //nolint:nilerr // the caller settles with a last lookup
		}
	}
}

// settleUnknownCreate looks the domain up after a create whose outcome was
// unknown, and adopts the website if this create made it. last is the last
// failure, returned when nothing (or someone else's website) is found.
//
// stores is how many of the attempts may have stored a website: not one
// that was refused (a 422, a give-up before it was sent).
func (c *Client) settleUnknownCreate(ctx context.Context, in WebsiteInput, firstSent time.Time, attempts, stores int, last error) (*CreateResult, error) {
	lctx, cancel := lookupContext(ctx)
	defer cancel()
	if lctx == nil {
		return nil, &CreateOutcomeUnknownError{Domain: in.Domain, Attempts: attempts, Err: last, LookupErr: ctx.Err()}
	}
	ws, err := c.findWebsitesByDomain(lctx, in.Domain)
	if err != nil {
		return nil, &CreateOutcomeUnknownError{Domain: in.Domain, Attempts: attempts, Err: last, LookupErr: err}
	}
	if len(ws) == 0 {
		// Nothing was stored for this user (a domain taken by another user
		// is not listed): the last failure stands, and nothing disagrees.
		return nil, last
	}
	for i := range ws {
		w := &ws[i]
		ok, why := c.madeByThisCreate(w, in, firstSent)
		fields := map[string]any{"domain": in.Domain, "id": w.ID, "created_at": w.CreatedAt.Format(time.RFC3339),
			"first_attempt": firstSent.UTC().Format(time.RFC3339Nano), "reason": why}
		if ok {
			c.log.Info(ctx, "adopted the website this create stored although its answer was lost", fields)
			res := &CreateResult{Website: w, Adopted: true, Attempts: attempts}
			if len(ws) == 1 {
				return res, nil
			}
			return c.reduceDuplicates(lctx, in, firstSent, res, stores, ws, last)
		}
		c.log.Warn(ctx, "the domain belongs to a website that existed before this create; not adopting it", fields)
	}
	if len(ws) > 1 {
		return nil, &DuplicateCreateError{Domain: in.Domain, IDs: websiteIDs(ws), Err: last,
			Reason: "none of them was made by this create, which may still have stored one; nothing was deleted"}
	}
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

// lookupContext is ctx for the lookups that settle a create, or, when ctx's
// deadline has passed, a short grace period: one more request is better
// than leaving a website the state does not know about. It is nil when ctx
// was cancelled.
func lookupContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if err := ctx.Err(); err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			return nil, func() {}
		}
		return context.WithTimeout(context.WithoutCancel(ctx), lookupGrace)
	}
	return ctx, func() {}
}

// settleDuplicates ends a create that succeeded after an attempt whose
// outcome was unknown: every website with the domain is looked up, and
// extra ones are reduced (see reduceDuplicates).
func (c *Client) settleDuplicates(ctx context.Context, in WebsiteInput, firstSent time.Time, res *CreateResult) (*CreateResult, error) {
	lctx, cancel := lookupContext(ctx)
	defer cancel()
	if lctx == nil {
		return res, nil
	}
	ws, err := c.findWebsitesByDomain(lctx, in.Domain)
	if err != nil {
		return nil, &CreateOutcomeUnknownError{Domain: in.Domain, Attempts: res.Attempts, Err: errors.New("an earlier attempt may have stored it too"), LookupErr: err}
	}
	if len(ws) <= 1 {
		return res, nil
	}
	return c.reduceDuplicates(lctx, in, firstSent, res, res.Attempts, ws, nil)
}

// reduceDuplicates deletes the websites of ws other than res.Website, when
// every one of them was made by this create; otherwise it deletes nothing
// and returns a *DuplicateCreateError, which carries last, the create's
// last failure when no attempt got a clear answer.
func (c *Client) reduceDuplicates(ctx context.Context, in WebsiteInput, firstSent time.Time, res *CreateResult, stores int, ws []Website,
	last error,
) (*CreateResult, error) {
	ids := websiteIDs(ws)
	var extra []int64
	for i := range ws {
		if ws[i].ID == res.Website.ID {
			continue
		}
		if ok, why := c.madeByThisCreate(&ws[i], in, firstSent); !ok {
			return nil, &DuplicateCreateError{Domain: in.Domain, IDs: ids, Err: last,
				Reason: fmt.Sprintf("website %d was not made by this create (%s), so nothing was deleted", ws[i].ID, why)}
		}
		extra = append(extra, ws[i].ID)
	}
	if len(extra) >= max(stores, 1) {
		// Each request that may have stored stores at most one website:
		// some of these were stored by another client, with the same
		// settings, and nothing tells which.
		return nil, &DuplicateCreateError{Domain: in.Domain, IDs: ids, Err: last,
			Reason: fmt.Sprintf("at most %d request(s) of this create may have stored a website, so at most %d of "+
				"these websites are its own; another client stored the others, and nothing tells which is which, so "+
				"nothing was deleted", max(stores, 1), max(stores, 1))}
	}
	for _, id := range extra {
		c.log.Warn(ctx, "deleting a duplicate that a repeated create made", map[string]any{"domain": in.Domain, "id": id, "kept": res.Website.ID})
		if err := c.DeleteWebsite(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, &DuplicateCreateError{Domain: in.Domain, IDs: ids, Err: last, Reason: fmt.Sprintf("deleting website %d failed: %v", id, err)}
		}
	}
	left, err := c.findWebsitesByDomain(ctx, in.Domain)
	if err != nil || len(left) != 1 {
		return nil, &DuplicateCreateError{Domain: in.Domain, IDs: ids, Err: last, Reason: fmt.Sprintf("after deleting the extra ones, the lookup found %d (%v)", len(left), err)}
	}
	return res, nil
}

// domainTakenMessage is the server's answer to a store of a domain that
// exists.
const domainTakenMessage = "The domain has already been taken."

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
	if isDialError(err) || classifyTLS(err, "", nil) != nil {
		// No connection, or a TLS handshake the server refused (a client
		// certificate alert arrives after the handshake under TLS 1.3, but
		// the server read no request): nothing was stored.
		return outcomeRejected
	}
	return outcomeUnknown
}

// createWebsite sends one POST /websites with every field; the record
// returned echoes the sent settings. It is CreateWebsite's single attempt.
func (c *Client) createWebsite(ctx context.Context, in WebsiteInput) (*Website, error) {
	return c.websiteCall(ctx, http.MethodPost, "/websites", in.form(true))
}
