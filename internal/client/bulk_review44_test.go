package client_test

import (
	"sync"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// MySQL before 8.0 recomputes AUTO_INCREMENT as max(id)+1 when it
// restarts: with a gap below the newest id (a website deleted long ago),
// deleting a website and the newest one, a restart and two creates give
// back the same newest id and the same total. A list in another order
// than newest first then compares equal marks before and after its pages,
// and misses a website that existed throughout.
func TestListAllWebsitesIDReusedAfterRestart(t *testing.T) {
	t.Parallel()
	for _, opts := range []client.ListOptions{
		{SortBy: client.SortByDomain, Sort: client.SortAsc},
		{SortBy: client.SortByID, Sort: client.SortAsc},
	} {
		t.Run(opts.SortBy+" "+opts.Sort, func(t *testing.T) {
			t.Parallel()
			env := newBulkEnv(t)
			ids := env.seed(250)
			newest := ids[len(ids)-1]
			env.emu.DeleteWebsite(ids[len(ids)-2]) // long ago: a gap below the newest
			var once sync.Once
			var gone int64
			env.hook(func(page int, after bool) {
				if page != 2 || after {
					return
				}
				once.Do(func() {
					p, err := env.c.ListWebsites(ctx(t), client.ListOptions{SortBy: opts.SortBy, Sort: opts.Sort, PerPage: 100})
					if err != nil {
						t.Error(err)
						return
					}
					gone = p.Websites[3].ID
					env.emu.DeleteWebsite(gone)
					env.emu.DeleteWebsite(newest)
					// The database restarts: the next ids are newest-1, then newest again.
					env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{ID: newest - 1, Domain: "zzz-new1.example.com"})
					env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{ID: newest, Domain: "zzz-new2.example.com"})
				})
			})
			ws, err := client.ListAllWebsites(env.c, ctx(t), opts)
			if err != nil {
				return // said it is not a snapshot: fine
			}
			got := map[int64]bool{}
			for _, w := range ws {
				got[w.ID] = true
			}
			for _, id := range ids[:len(ids)-2] {
				if id != gone && !got[id] {
					t.Errorf("website %d, which existed throughout, is missing from the list (%d websites), and no error", id, len(ws))
				}
			}
		})
	}
}

// A refresh that reads its websites oldest first, one at a time (terraform
// -parallelism=1 over websites created in order), costs the floor when
// nothing changes: one GET, then ⌈N/100⌉ pages, and page 1 once more, read
// again at the end because the sweep began with a page 1 read before it
// (7 requests for 500; 6 before that second read; 10 when the sweep read
// pages in another order).
func TestBulkReaderOldestFirstAtTheFloor(t *testing.T) {
	t.Parallel()
	env := newBulkEnv(t)
	ids := env.seed(500)
	env.emu.ResetStats()
	b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
	readAll(t, b, ids, 1)
	total, list, show := env.requests()
	if total > 7 {
		t.Errorf("500 reads oldest first, nothing changed: %d requests (%d list, %d show), want at most 7; %+v", total, list, show, b.Stats())
	}
}
