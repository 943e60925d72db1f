package client

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

func (c *Client) madeByThisCreate(w *Website, in WebsiteInput, firstSent time.Time) (bool, string) {
	offset, offsetKnown := c.clock.lowerBound()
	return adoptionCheck(w, in, firstSent, offset, offsetKnown)
}

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
//     record must hold exactly the settings sent (every column of
//     wire.Columns the record returns: settingsDiffer) and must not be a
//     favorite (a new website never is). A website someone made at
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
	diffs := settingsDiffer(w, in)
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
	// A line stored twice (the web interface keeps what was typed) is
	// the same list.
	return slices.Equal(slices.Compact(a), slices.Compact(b))
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
