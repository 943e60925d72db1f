package apprecord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
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
	// Sleep waits out a 429; nil means time.Sleep.
	Sleep func(time.Duration)
}

// maxThrottled is how many 429s in a row one call waits out.
const maxThrottled = 10

// Record sends calls generated calls of seed (see NewGenerator for accept)
// and returns them with the answers. The account must hold no website (the
// lists would show them). Afterwards it deletes the websites the sequence
// created, unrecorded, so that the same seed can be recorded again.
func (r *Recorder) Record(ctx context.Context, seed int64, calls int, accept float64) (*File, error) {
	if err := r.checkEmpty(ctx); err != nil {
		return nil, err
	}
	n := NewNormaliser()
	g := NewGenerator(seed, accept)
	f := &File{Seed: seed}
	var err error
	for i := range calls {
		c := g.Next(n.Created())
		var status int
		var body []byte
		if status, body, err = r.send(ctx, n, c); err != nil {
			err = fmt.Errorf("call %d (%s %s): %w", i, c.Method, c.Path, err)
			break
		}
		if c.Body, err = n.Answer(c, status, body); err != nil {
			err = fmt.Errorf("call %d (%s %s): answer %d: %w", i, c.Method, c.Path, status, err)
			break
		}
		c.Status = status
		f.Calls = append(f.Calls, c)
	}
	return f, errors.Join(err, r.cleanUp(ctx, n))
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
	client, sleep := r.Client, r.Sleep
	if client == nil {
		client = http.DefaultClient
	}
	if sleep == nil {
		sleep = time.Sleep
	}
	for range maxThrottled {
		req, err := n.Request(ctx, r.Base, r.Key, c)
		if err != nil {
			return 0, nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp.StatusCode, body, nil
		}
		wait := time.Minute
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
			wait = time.Duration(s+1) * time.Second
		}
		sleep(wait)
	}
	return 0, nil, fmt.Errorf("still throttled after %d waits", maxThrottled)
}
