package client

import (
	"net/http"
	"sync"
	"time"
)

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
