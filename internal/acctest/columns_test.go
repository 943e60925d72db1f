package acctest

import (
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// LostColumns takes a set's entries re-sent sorted, one per line, as no
// loss; anything else that differs, a list that is not sent as a set
// reordered included, is lost, and the message for the latter names the
// edit.
func TestLostColumns(t *testing.T) {
	t.Parallel()
	was := FullWebsite("shop.example")
	for _, tc := range []struct {
		name   string
		change func(*emulator.Website)
		lost   string // "" for none; else a part of the one message
	}{
		{"nothing", func(*emulator.Website) {}, ""},
		{"a set re-sent sorted, one per line", func(w *emulator.Website) { w.ExcludeIPs = "10.0.0.0/8\n10.0.0.1" }, ""},
		{"another set reordered", func(w *emulator.Website) { w.ExcludeParams = "fbclid\nutm_source" }, ""},
		{"an ignored column", func(w *emulator.Website) { w.Email = ptr(0) }, ""},
		{"a set's entry dropped", func(w *emulator.Website) { w.ExcludeIPs = "10.0.0.1" }, `ExcludeIPs "10.0.0.1"`},
		{"a set emptied", func(w *emulator.Website) { w.ExcludeParams = "" }, `ExcludeParams "" (was "utm_source\nfbclid")`},
		{"a column not sent as a set, reordered", func(w *emulator.Website) { w.Domain = "example.shop" }, ""},
		{"a list not sent as a set, reordered", func(w *emulator.Website) {
			w.Domain = "b.example,a.example"
		}, "client.WebsiteInput.Domain (internal/client/website.go) a []string"},
		{"the password", func(w *emulator.Website) { w.Password = "changed-pw-7" }, "Password (changed)"},
		{"a pointer to NULL", func(w *emulator.Website) { w.Privacy = nil }, "Privacy NULL (was 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := was
			if tc.name == "a list not sent as a set, reordered" {
				before.Domain = "a.example,b.example"
			}
			now := before
			tc.change(&now)
			lost := LostColumns(before, now, "Email", "UpdatedAt")
			switch {
			case tc.name == "a column not sent as a set, reordered":
				if len(lost) != 1 || strings.Contains(lost[0], "[]string") {
					t.Errorf("a changed domain: got %q, want one plain change", lost)
				}
			case tc.lost == "" && len(lost) != 0:
				t.Errorf("got %q, want no loss", lost)
			case tc.lost != "" && (len(lost) != 1 || !strings.Contains(lost[0], tc.lost)):
				t.Errorf("got %q, want one loss holding %q", lost, tc.lost)
			}
			if strings.Contains(strings.Join(lost, " "), "changed-pw-7") {
				t.Errorf("the password is printed: %q", lost)
			}
		})
	}
}

// ChangedColumns names every difference, a set's order included.
func TestChangedColumns_strict(t *testing.T) {
	t.Parallel()
	was := FullWebsite("shop.example")
	now := was
	now.ExcludeIPs = "10.0.0.0/8\n10.0.0.1"
	if got := ChangedColumns(was, now); len(got) != 1 || !strings.HasPrefix(got[0], "ExcludeIPs ") {
		t.Errorf("got %q, want ExcludeIPs changed", got)
	}
}
