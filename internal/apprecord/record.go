package apprecord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Recorder sends a generated sequence to an installation and records its
// answers, normalised.
type Recorder struct {
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
	// Base is the installation's URL, without /api/v1.
	Base string
	// Key is the API key of a user whose account holds no website.
	Key string
	// Sleep waits out a 429, or fails with the context's error when it
	// ends first; nil means sleepContext (a timer).
	Sleep func(context.Context, time.Duration) error
}

// ErrCleanUp marks Record's error when deleting what the sequence created
// failed: if the recording itself is complete, it is still good to write.
var ErrCleanUp = errors.New("apprecord: cleaning up")

// cleanUpTimeout bounds the clean-up, which runs even after the recording's
// context ended (Ctrl-C): long enough to wait out a 429 or two.
const cleanUpTimeout = 5 * time.Minute

// maxThrottled is how many 429s in a row one call waits out.
const maxThrottled = 10

// Record sends calls generated calls of seed (see NewGenerator for accept)
// and returns them with the answers. The account must be on a plan without
// a website limit (checkPlan) and hold no website (the lists would show
// them). Afterwards, even when ctx ended, it deletes the websites the
// sequence created, unrecorded, so that the account can record again
// (after a store whose answer was lost, every listed website whose domain holds the tag); if
// only that fails, the error wraps ErrCleanUp and the File is complete.
func (r *Recorder) Record(ctx context.Context, seed int64, calls int, accept float64) (*File, error) {
	if err := r.checkPlan(ctx); err != nil {
		return nil, err
	}
	if err := r.checkEmpty(ctx); err != nil {
		return nil, err
	}
	n := NewNormaliser()
	g := NewGenerator(seed, accept)
	f := &File{Seed: seed}
	var err error
	lost := false // a store failed: it may have created a website of unknown id
	for i := range calls {
		c := g.Next(n.Created())
		var status int
		var body []byte
		if status, body, err = r.send(ctx, n, c); err != nil {
			err = fmt.Errorf("call %d (%s %s): %w", i, c.Method, c.Path, err)
			lost = c.Method == http.MethodPost
			break
		}
		if c.Body, err = n.Answer(c, status, body); err != nil {
			err = fmt.Errorf("call %d (%s %s): answer %d: %w", i, c.Method, c.Path, status, err)
			lost = c.Method == http.MethodPost
			break
		}
		c.Status = status
		f.Calls = append(f.Calls, c)
	}
	cleanCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanUpTimeout)
	defer cancel()
	cerr := r.cleanUp(cleanCtx, n)
	if lost && cerr == nil {
		// The account held no website at the start, and every domain the
		// generator stores holds its tag: what the account lists with the
		// tag is ours (another writer's website is never deleted).
		var deleted int
		deleted, cerr = r.cleanUpListed(cleanCtx, g.tag)
		err = fmt.Errorf("%w (the store's answer was lost: the clean-up listed the account and deleted "+
			"the %d website(s) it still held)", err, deleted)
	}
	if cerr != nil {
		if lost {
			cerr = fmt.Errorf("%w (a store's answer was lost: the account may hold a website the "+
				"recorder does not know; list it and delete what it holds by hand)", cerr)
		}
		err = errors.Join(err, fmt.Errorf("%w: %w", ErrCleanUp, cerr))
	}
	return f, err
}

// maxListPages bounds cleanUpListed's walk through the account's lists.
const maxListPages = 100

// cleanUpListed deletes every website the account lists whose domain holds
// tag (the generator's "df<seed>"), and says how many. Record calls it only
// after a store's answer was lost, as the account held no website at the
// start.
func (r *Recorder) cleanUpListed(ctx context.Context, tag string) (int, error) {
	n := NewNormaliser()
	deleted := 0
	for range maxListPages {
		status, body, err := r.send(ctx, n, Call{Method: http.MethodGet, Path: "/websites",
			Query: Pairs{{Key: "search", Value: tag}, {Key: "per_page", Value: "100"}}})
		if err != nil {
			return deleted, fmt.Errorf("listing the account afterwards: %w", err)
		}
		var list struct {
			Data []struct {
				ID     json.Number `json:"id"`
				Domain string      `json:"domain"`
			} `json:"data"`
		}
		if status != http.StatusOK || json.Unmarshal(body, &list) != nil {
			return deleted, fmt.Errorf("listing the account afterwards answered %d, not the list", status)
		}
		ours := 0
		for _, w := range list.Data {
			if !strings.Contains(w.Domain, tag) {
				continue
			}
			ours++
			id := w.ID.String()
			if !integerRE.MatchString(id) {
				return deleted, fmt.Errorf("listing the account afterwards: an id is %q, not an integer", id)
			}
			status, _, err := r.send(ctx, n, Call{Method: http.MethodDelete, Path: "/websites/" + id})
			if err == nil && status != http.StatusOK && status != http.StatusNotFound {
				err = fmt.Errorf("answered %d", status)
			}
			if err != nil {
				return deleted, fmt.Errorf("deleting listed website %s afterwards: %w", id, err)
			}
			deleted++
		}
		if ours == 0 {
			return deleted, nil
		}
	}
	return deleted, fmt.Errorf("the account still lists websites after %d pages deleted", maxListPages)
}

// checkPlan fails unless GET /account shows a plan without a website limit
// (websites -1): with a limit, stores past it answer "You created too many
// websites.", which the emulator would answer only with the same plan.
func (r *Recorder) checkPlan(ctx context.Context) error {
	status, body, err := r.send(ctx, NewNormaliser(), Call{Method: http.MethodGet, Path: "/account"})
	if err != nil {
		return err
	}
	var account struct {
		Data struct {
			Plan struct {
				Features struct {
					Websites *int `json:"websites"`
				} `json:"features"`
			} `json:"plan"`
		} `json:"data"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &account) != nil || account.Data.Plan.Features.Websites == nil {
		return fmt.Errorf("GET /account answered %d, not the account with its plan: check the base URL and "+
			"the key (an installation without GET /account cannot show the plan, so it is not recorded)", status)
	}
	if w := *account.Data.Plan.Features.Websites; w != -1 {
		return fmt.Errorf("the account's plan allows %d websites: record with the key of a user on a plan "+
			"without a website limit (websites -1)", w)
	}
	return nil
}

// checkEmpty fails unless the account lists no website.
func (r *Recorder) checkEmpty(ctx context.Context) error {
	status, body, err := r.send(ctx, NewNormaliser(), Call{Method: http.MethodGet, Path: "/websites",
		Query: Pairs{{Key: "per_page", Value: "10"}}})
	if err != nil {
		return err
	}
	var list struct {
		Meta struct {
			Total *int `json:"total"`
		} `json:"meta"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &list) != nil || list.Meta.Total == nil {
		return fmt.Errorf("listing the account's websites answered %d, not the list: check the base URL and the key", status)
	}
	if *list.Meta.Total != 0 {
		return fmt.Errorf("the account holds %d websites: record with the key of an account holding none, "+
			"as its lists would show them", *list.Meta.Total)
	}
	return nil
}

// cleanUp deletes every website the sequence created (a deleted one
// answers 404).
func (r *Recorder) cleanUp(ctx context.Context, n *Normaliser) error {
	var errs []error
	for k := range n.Created() {
		status, _, err := r.send(ctx, n, Call{Method: http.MethodDelete, Path: "/websites/#" + strconv.Itoa(k)})
		if err == nil && status != http.StatusOK && status != http.StatusNotFound {
			err = fmt.Errorf("answered %d", status)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("deleting website #%d afterwards: %w", k, err))
		}
	}
	return errors.Join(errs...)
}

// send sends c, waiting out 429s, and returns the status and body.
func (r *Recorder) send(ctx context.Context, n *Normaliser, c Call) (int, []byte, error) {
	client, sleep := noRedirect(r.Client), r.Sleep
	if sleep == nil {
		sleep = sleepContext
	}
	for range maxThrottled {
		req, err := n.Request(ctx, r.Base, r.Key, c)
		if err != nil {
			return 0, nil, withoutURL(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, withoutURL(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, nil, err
		}
		if resp.StatusCode >= 300 && resp.StatusCode < 400 {
			// Never the Location: it may hold a user and password.
			return 0, nil, fmt.Errorf("answered %d, a redirect, which the recorder never follows (the key "+
				"would go to the new address, and stores would arrive as GETs): set the base URL to the "+
				"address the installation answers at", resp.StatusCode)
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp.StatusCode, body, nil
		}
		wait := time.Minute
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
			wait = time.Duration(s+1) * time.Second
		}
		if err := sleep(ctx, wait); err != nil {
			return 0, nil, fmt.Errorf("waiting out a 429: %w", err)
		}
	}
	return 0, nil, fmt.Errorf("still throttled after %d waits", maxThrottled)
}

// noRedirect is a copy of client (nil: http.DefaultClient) that follows no
// redirect: send then sees the 3xx answer itself.
func noRedirect(client *http.Client) *http.Client {
	c := http.Client{}
	if client != nil {
		c = *client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// sleepContext waits d, or until ctx ends (then it returns ctx's error).
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// withoutURL is err without the request's URL, which holds the base URL
// (perhaps with a user and password): the caller names the call instead.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}
