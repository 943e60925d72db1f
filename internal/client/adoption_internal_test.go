package client

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestAdoptionCheck(t *testing.T) {
	t.Parallel()
	first := time.Date(2024, 10, 13, 13, 9, 15, 600_000_000, time.UTC) // local time of the first attempt
	pw := "s3cret"
	in := WebsiteInput{Domain: "example.com", Privacy: PrivacyPassword, Email: true, ExcludeBots: false,
		Password: &pw, ExcludeIPs: []string{"203.0.113.7", "10.0.0.0/8"}}
	ours := func() *Website {
		return &Website{ID: 9, Domain: "example.com", Privacy: intp(2), Email: intp(1), ExcludeBots: intp(0),
			PasswordSet: true, ExcludeIPs: []string{"10.0.0.0/8", "203.0.113.7"}, Favorite: boolp(false),
			CreatedAt: time.Date(2024, 10, 13, 13, 9, 15, 0, time.UTC)}
	}
	for _, tc := range []struct {
		name        string
		edit        func(w *Website)
		offset      time.Duration
		offsetKnown bool
		adopt       bool
		why         string
	}{
		// created_at is truncated to the second: 13:09:15 is not before
		// the first attempt at 13:09:15.6.
		{name: "same second", offsetKnown: true, adopt: true},
		{name: "later", edit: func(w *Website) { w.CreatedAt = w.CreatedAt.Add(3 * time.Second) }, offsetKnown: true, adopt: true},
		{name: "a second before", edit: func(w *Website) { w.CreatedAt = w.CreatedAt.Add(-time.Second) }, offsetKnown: true,
			why: "before this create's first attempt"},
		{name: "an hour before", edit: func(w *Website) { w.CreatedAt = w.CreatedAt.Add(-time.Hour) }, offsetKnown: true,
			why: "2024-10-13T12:09:15Z, before"},
		// The server's clock is an hour behind: its created_at is an hour
		// "before" ours, and still made by this create.
		{name: "server behind", edit: func(w *Website) { w.CreatedAt = w.CreatedAt.Add(-time.Hour) }, offset: -time.Hour - 500*time.Millisecond,
			offsetKnown: true, adopt: true},
		{name: "server ahead, older website", edit: func(w *Website) { w.CreatedAt = w.CreatedAt.Add(time.Hour - 5*time.Second) },
			offset: time.Hour, offsetKnown: true, why: "before this create's first attempt"},
		// Without a Date header the clocks are assumed to agree within 2s.
		{name: "no Date, 2s before", edit: func(w *Website) { w.CreatedAt = w.CreatedAt.Add(-time.Second) }, adopt: true},
		{name: "no Date, 4s before", edit: func(w *Website) { w.CreatedAt = w.CreatedAt.Add(-4 * time.Second) },
			why: "before this create's first attempt"},
		{name: "a line twice", edit: func(w *Website) { w.ExcludeIPs = append(w.ExcludeIPs, "10.0.0.0/8") }, offsetKnown: true, adopt: true},
		{name: "privacy", edit: func(w *Website) { w.Privacy = intp(1) }, offsetKnown: true, why: "[privacy]"},
		{name: "NULL email", edit: func(w *Website) { w.Email = nil }, offsetKnown: true, why: "[email]"},
		{name: "bots", edit: func(w *Website) { w.ExcludeBots = intp(1) }, offsetKnown: true, why: "[exclude_bots]"},
		{name: "ips", edit: func(w *Website) { w.ExcludeIPs = []string{"10.0.0.0/8"} }, offsetKnown: true, why: "[exclude_ips]"},
		{name: "no password", edit: func(w *Website) { w.PasswordSet = false }, offsetKnown: true, why: "[password]"},
		{name: "favorite", edit: func(w *Website) { w.Favorite = boolp(true) }, offsetKnown: true, why: "[favorite]"},
		{name: "old build without favorites", edit: func(w *Website) { w.Favorite = nil }, offsetKnown: true, adopt: true},
		{name: "no created_at", edit: func(w *Website) { w.CreatedAt = time.Time{} }, offsetKnown: true, why: "no created_at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := ours()
			if tc.edit != nil {
				tc.edit(w)
			}
			ok, why := adoptionCheck(w, in, first, tc.offset, tc.offsetKnown)
			if ok != tc.adopt || (tc.why != "" && !strings.Contains(why, tc.why)) {
				t.Errorf("adoptionCheck = %v %q, want %v (%q)", ok, why, tc.adopt, tc.why)
			}
		})
	}
}

func TestServerClockLowerBound(t *testing.T) {
	t.Parallel()
	var sc serverClock
	if _, ok := sc.lowerBound(); ok {
		t.Fatal("known without a Date")
	}
	local := time.Date(2024, 1, 1, 12, 0, 0, 700_000_000, time.UTC)
	h := http.Header{}
	sc.observe(h, local) // no Date: ignored
	h.Set("Date", local.Add(time.Hour).Format(http.TimeFormat))
	sc.observe(h, local)
	if off, ok := sc.lowerBound(); !ok || off != time.Hour-700*time.Millisecond {
		t.Errorf("offset %v %v", off, ok)
	}
	// A larger bound wins; a slightly smaller one does not.
	h.Set("Date", local.Add(time.Hour+time.Second).Format(http.TimeFormat))
	sc.observe(h, local.Add(500*time.Millisecond))
	h.Set("Date", local.Add(time.Hour).Format(http.TimeFormat))
	sc.observe(h, local.Add(900*time.Millisecond))
	if off, _ := sc.lowerBound(); off != time.Hour-200*time.Millisecond {
		t.Errorf("offset %v", off)
	}
	// The server's clock was set back: the new bound replaces the old.
	h.Set("Date", local.Format(http.TimeFormat))
	sc.observe(h, local)
	if off, _ := sc.lowerBound(); off != -700*time.Millisecond {
		t.Errorf("offset %v after the clock was set back", off)
	}
}

func intp(i int) *int    { return &i }
func boolp(b bool) *bool { return &b }
