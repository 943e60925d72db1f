package client_test

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// From page 3, oldest first, 25 per page: another client creates a website
// (and deletes one) during the first attempt; the second attempt yields the
// list from page 3 as the server pages it after the change, each once.
func TestLocalCutAfterRetry(t *testing.T) {
	t.Parallel()
	for _, order := range []client.ListOptions{{SortBy: client.SortByID, Sort: client.SortAsc}, {SortBy: client.SortByDomain, Sort: client.SortDesc}} {
		env := newBulkEnv(t)
		ids := env.seed(130)
		var n atomic.Int64
		env.hook(func(page int, after bool) {
			if !after && n.Add(1) == 3 {
				env.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: "aaa-new.example.com"})
				env.emu.DeleteWebsite(ids[40])
			}
		})
		opts := order
		opts.PerPage, opts.Page = 25, 3
		var got []int64
		for w, err := range env.c.AllWebsites(ctx(t), opts) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, w.ID)
		}
		env.hook(func(int, bool) {})
		o := opts
		o.Page = 0
		want := serverPages(t, env.c, o, 3)
		if !slices.Equal(got, want) {
			t.Errorf("%+v: got %d %v, want %d %v", opts, len(got), got, len(want), want)
		}
		t.Logf("%+v: %d list requests", opts, n.Load())
	}
}
