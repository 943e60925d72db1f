package emulator

import (
	"net/http"
	"net/url"
	"testing"
)

// SeedStatistics adds to the statistics exactly what tracking that many
// hits would have, served by GET /stats/{id}; an unknown website is refused.
func TestSeedStatistics(t *testing.T) {
	t.Parallel()
	s, clock := newTestServer(t, Options{})
	id := create(t, s, keyA, url.Values{"domain": {"d.example"}})
	clockDays(t, s, clock, "https://d.example/", map[string]int{"2024-01-05": 2})
	if !s.SeedStatistics(id, []Statistic{
		{Name: "pageviews", Value: "2024-01-05", Date: "2024-01-05", Count: 3},
		{Name: "pageviews", Value: "2023-06-01", Date: "2023-06-01", Count: 7},
		{Name: "page", Value: "/seeded", Date: "2023-06-01", Count: 7},
	}) {
		t.Fatal("SeedStatistics refused a website that exists")
	}
	if s.SeedStatistics(id+100, []Statistic{{Name: "page", Value: "/", Date: "2024-01-01", Count: 1}}) {
		t.Error("SeedStatistics accepted an unknown website")
	}
	for query, want := range map[string][]string{
		"name=pageviews&from=2000-01-01&to=2100-12-31&sort_by=value&sort=asc": {"2023-06-01=7", "2024-01-05=5"},
		"name=page&from=2000-01-01&to=2100-12-31&sort_by=value&sort=asc":      {"/=2", "/seeded=7"},
	} {
		r := do(t, s, call{path: statsPath(id, query), key: keyA})
		if r.status != http.StatusOK {
			t.Fatalf("%d %s", r.status, r.body)
		}
		var p statsPage
		decode(t, r, &p)
		var got []string
		for _, d := range p.Data {
			got = append(got, d.Value+"="+d.Count)
		}
		if !equalStrings(got, want) {
			t.Errorf("%s: %v, want %v", query, got, want)
		}
	}
}
