package client

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// Review rev42c of the pacer's window learning. Every test drives the pacer with a fake clock
// (p.now) and never lets acquire wait: the clock is moved past every wait
// before a request is sent, and waits are read from gateLocked.

// fakePacer returns a pacer on a fake clock starting at 1_000_000 s, the
// clock's setter (seconds after the start) and a sender: remaining >= 0
// answers 200 with that much left of a window of 60; remaining < 0 answers
// the throttle's 429 (with X-RateLimit-Limit) asking to wait retryAfter s.
func fakePacer(t *testing.T) (p *pacer, at func(secs float64), send func(remaining, retryAfter int)) {
	t.Helper()
	start := time.Unix(1_000_000, 0)
	now := start
	p = newPacer(0, nil)
	p.now = func() time.Time { return now }
	at = func(secs float64) { now = start.Add(time.Duration(secs * float64(time.Second))) }
	send = func(remaining, retryAfter int) {
		t.Helper()
		if remaining < 0 {
			pacerSend(t, p, http.StatusTooManyRequests, 0, retryAfter)
			return
		}
		pacerSend(t, p, http.StatusOK, remaining, 0)
	}
	return p, at, send
}

// pacerGate reports what the pacer says at secs after the start: zero
// and true when a request may go, else until when it must wait (zero: until
// an answer arrives).
func pacerGate(p *pacer, at func(float64), secs float64) (time.Duration, bool) {
	at(secs)
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	until, ok, _ := p.gateLocked(now)
	if until.IsZero() {
		return 0, ok
	}
	return until.Sub(now), ok
}

// A client that learned the throttle's 5-second window predicts the end of
// each window whose first request it sent. When it next sends after that
// predicted end and other programs of the address have already taken the
// new window's first request and more of its budget than the client saw
// left before, the answer does not show a new window (it reports less, not
// more), and the pacer keeps the start of the window it itself predicted
// to be over. The 429 of the new window then measures two windows (10 s);
// a client with a steady routine measures that twice in a row, learns it,
// and from then on waits 10 s each time the budget runs out against a
// 5-second throttle: the stall the change set out to end, from state the
// pacer knew to be stale (its own windowEnd had passed).
func TestPacerForgetsAStartPastItsPredictedEnd(t *testing.T) {
	t.Parallel()
	p, at, send := fakePacer(t)
	// Two windows of 5 s seen whole: learned.
	for _, w := range []float64{0, 5} {
		at(w)
		send(59, 0) // the window's first request
		at(w + 1)
		send(-1, 4) // its 429: the window ends at w+5
	}
	if p.windowLen != 5*time.Second {
		t.Fatalf("two 5-second windows taught %v", p.windowLen)
	}
	// Twice: the client sends a window's first request and one more, then
	// nothing until after the end it predicted (w+5.1); meanwhile another
	// program took the next window's first request and 49 more.
	for _, w := range []float64{10, 20} {
		at(w)
		send(59, 0) // the window's first request: predicted end w+5.1
		at(w + 1)
		send(30, 0)
		at(w + 6) // the next window began at w+5
		send(10, 0)
		at(w + 7)
		send(-1, 3) // that window ends at w+10
	}
	if p.windowLen != 5*time.Second {
		t.Errorf("the pacer learned a window of %v (the throttle's is 5s) from the starts of windows it had predicted over", p.windowLen)
	}
	// The consequence: a window begun with the client's request at 30 s
	// whose budget the others spend ends at 35 s; the pacer waits longer.
	at(30)
	send(59, 0)
	at(31)
	send(0, 0)
	if wait, ok := pacerGate(p, at, 35.5); !ok && wait > time.Second {
		t.Errorf("at 35.5 s, after the throttle's window ended at 35 s, the pacer waits %v more", wait)
	}
}

// A 429 without X-RateLimit-Limit is not the throttle's (a proxy's, or the
// emulator's injected ThrottleRate burst, which carries neither X-RateLimit
// header and is not counted by the throttle). The change forgets the
// window's start on any 429, and the lowest budget it sets to 0 makes the
// throttle's next answer in the same window look like a new window (which
// forgets the start again). A client that meets such a 429 in each window
// then never measures a window, so it never learns the length and sends a
// request into every exhausted window (a 429 each); before the change it
// learned the length from the first window.
func TestPacerLearnsThroughAProxys429(t *testing.T) {
	t.Parallel()
	p, at, send := fakePacer(t)
	proxy429 := func(retryAfter int) {
		t.Helper()
		tk, err := p.acquire(t.Context(), "GET", "/api/v1/websites")
		if err != nil {
			t.Fatal(err)
		}
		h := http.Header{"Retry-After": {strconv.Itoa(retryAfter)}}
		p.release(tk, &http.Response{StatusCode: http.StatusTooManyRequests, Header: h})
	}
	for _, w := range []float64{0, 10, 20} {
		at(w)
		send(59, 0) // the first request of a 10-second window
		at(w + 1)
		proxy429(1) // not counted by the throttle
		at(w + 2)
		send(58, 0)
		at(w + 3)
		send(-1, 7) // the throttle's 429: the window ends at w+10
	}
	if want := 10 * time.Second; p.windowLen != want {
		t.Errorf("after three 10-second windows seen whole, each with one proxy 429, the pacer learned %v, want %v", p.windowLen, want)
	}
}

// A throttle whose window becomes shorter (a 10-second window, then 5 s:
// an installation's setting, or the emulator's throttle.set) is waited out
// with the old length for ever: no request is sent before the predicted
// end, so no 429 measures again. The pacer even sees the proof that its
// length is too long, a new window (more budget left) well before the end
// it predicted, and keeps the length. (Present before the change too.)
func TestPacerUnlearnsALengthANewWindowDisproves(t *testing.T) {
	t.Parallel()
	p, at, send := fakePacer(t)
	for _, w := range []float64{0, 10} {
		at(w)
		send(59, 0)
		at(w + 1)
		send(-1, 9) // 10-second windows
	}
	if p.windowLen != 10*time.Second {
		t.Fatalf("two 10-second windows taught %v", p.windowLen)
	}
	// The throttle now counts 5-second windows.
	at(20)
	send(59, 0) // predicted end 30.1
	at(21)
	send(20, 0)
	at(26)
	send(50, 0) // a new window, begun by another program at 25 (< 30.1)
	// The client's own first request of a window, at 40; others spend the
	// rest; the throttle's window ends at 45.
	at(40)
	send(59, 0)
	at(41)
	send(0, 0)
	if wait, ok := pacerGate(p, at, 45.5); !ok && wait > time.Second {
		t.Errorf("at 45.5 s the pacer waits %v more for a 10-second window a new window at 26 s had disproved", wait)
	}
}

// Laravel's throttle keeps the window's end as a whole unix second
// (availableAt: the first hit's second + the decay) and answers Retry-After
// = that end - the current whole second. Measured from the client's clock,
// windows of one steady client then come out 1 s apart whenever the 429
// and the window's first request fall on different sides of a second's
// fraction: a client that spends its 60 requests in 1.5 s measures 60.5 s,
// 59.5 s, 60.5 s, ... and "within a second" (strictly) never holds, so it
// never learns the length and meets a 429 in every window. (The emulator's
// Retry-After, rounded up from an exact end, measures within 1 s and hides
// this.)
func TestPacerLearnsWholeSecondWindows(t *testing.T) {
	t.Parallel()
	p, at, send := fakePacer(t)
	s := 0.0 // the window's first request, seconds after the start (whole seconds fall on the server's)
	for range 6 {
		end := float64(int(s)) + 60 // Laravel's availableAt
		at(s)
		send(59, 0)
		t429 := s + 1.5
		at(t429)
		send(-1, int(end)-int(t429)) // Retry-After: whole seconds to availableAt
		s = t429 + float64(int(end)-int(t429))
	}
	if p.windowLen == 0 {
		t.Errorf("after six windows of a steady client against whole-second windows of 60 s (measured %v last), no length was learned", p.measured)
	}
}

// A late answer to a request sent before the throttle's 429 tells nothing
// of the window after it: once the Retry-After has passed, a single probe
// goes first, not every request at once on that old budget.
func TestPacerLate200BeforeA429LeavesTheProbe(t *testing.T) {
	t.Parallel()
	p, at, _ := fakePacer(t)
	ok200 := http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"30"}}
	refused := http.Header{"X-Ratelimit-Limit": {"60"}, "Retry-After": {"1"}}
	early, err := p.acquire(t.Context(), "GET", "/api/v1/websites")
	if err != nil {
		t.Fatal(err)
	}
	late, err := p.acquire(t.Context(), "GET", "/api/v1/websites")
	if err != nil {
		t.Fatal(err)
	}
	p.release(late, &http.Response{StatusCode: http.StatusTooManyRequests, Header: refused})
	p.release(early, &http.Response{StatusCode: http.StatusOK, Header: ok200})
	at(1.5)
	if _, err := p.acquire(t.Context(), "GET", "/api/v1/websites"); err != nil { // the probe
		t.Fatal(err)
	}
	if _, ok := pacerGate(p, at, 1.5); ok {
		t.Error("beside the probe after a 429, another request may go on the budget of an answer sent before the 429")
	}
}
