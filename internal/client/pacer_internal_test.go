package client

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// A client that shares the throttle with other programs (the same address)
// seldom sees the first request of a window. It must not learn the window's
// length from the start of an older window it saw: a 429 in a later window
// would teach a window minutes long, and the pacer would then wait that long
// each time the budget runs out (a 5-second throttle stalled the live mode's
// clean-up for two minutes).
func TestPacerLearnsNoWindowFromAnOlderWindowsStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// between is what the client sees after the first request of the
		// first window and before the 429, two windows later.
		between []int
	}{
		{"a new window seen by its budget", []int{30, 45}},
		{"a 429 between", []int{-1, 40}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			now := time.Unix(1_000_000, 0)
			p := newPacer(0, nil)
			p.now = func() time.Time { return now }
			send := func(status, remaining, retryAfter int) { t.Helper(); pacerSend(t, p, status, remaining, retryAfter) }
			send(http.StatusOK, 59, 0) // the first request of a window
			for _, r := range tc.between {
				now = now.Add(5 * time.Second)
				if r < 0 {
					send(http.StatusTooManyRequests, 0, 1)
					now = now.Add(time.Second)
					continue
				}
				send(http.StatusOK, r, 0)
			}
			now = now.Add(2 * time.Minute)
			send(http.StatusOK, 1, 0)
			send(http.StatusTooManyRequests, 0, 3) // this window ends in 3 s
			if p.windowLen != 0 {
				t.Errorf("the pacer learned a window of %v from the start of an older window", p.windowLen)
			}
		})
	}
}

// A client that sees the first request and the 429 of two windows of the
// same length learns that length, and then waits windows out without a
// refused request; one window alone teaches nothing (its start may have
// been an older window's).
func TestPacerLearnsTheWindowItSaw(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_000_000, 0)
	p := newPacer(0, nil)
	p.now = func() time.Time { return now }
	send := func(status int) { t.Helper(); pacerSend(t, p, status, 59, 8) }
	for window := range 2 {
		if window == 1 && p.windowLen != 0 {
			t.Fatalf("one window taught a length (%v)", p.windowLen)
		}
		send(http.StatusOK) // the window's first request, at 0 s
		now = now.Add(2 * time.Second)
		send(http.StatusTooManyRequests) // at 2 s; the window ends 8 s later
		now = now.Add(8 * time.Second)
	}
	if want := 10 * time.Second; p.windowLen != want {
		t.Errorf("learned window %v, want %v", p.windowLen, want)
	}
}

// pacerSend sends one request through p and answers it with status: a
// 429 with Retry-After retryAfter seconds, or else remaining requests left
// of a window of 60.
func pacerSend(t *testing.T, p *pacer, status, remaining, retryAfter int) {
	t.Helper()
	tk, err := p.acquire(t.Context(), "GET", "/api/v1/websites")
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{"X-Ratelimit-Limit": {"60"}}
	if status == http.StatusTooManyRequests {
		h.Set("Retry-After", strconv.Itoa(retryAfter))
	} else {
		h.Set("X-Ratelimit-Remaining", strconv.Itoa(remaining))
	}
	p.release(tk, &http.Response{StatusCode: status, Header: h})
}
