package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// The statistics pass: a website with a pageview on each of N days (365 by
// default), seeded into the emulator as the tracking endpoint records it,
// then two applies that read them with the analytics_website_statistics
// data source: by id (pageviews and visitors), and by domain with the top
// 100 pages. Each must cost one request per 100 days of each statistic
// read, one for the dimension and one search for the domain, never more.

// PassStatistics is the statistics pass.
const PassStatistics = "statistics"

// Steps of the statistics pass: applies whose only work is to read the
// data source (and store its outputs).
const (
	StepStatisticsByID     = "statistics-by-id"
	StepStatisticsByDomain = "statistics-by-domain"
)

// statisticsSteps are the steps of the pass.
var statisticsSteps = []string{StepStatisticsByID, StepStatisticsByDomain}

// statisticsDomain is the website of the pass.
const statisticsDomain = "stats.bench-example.com"

// statisticsFirstDay is the first day with a pageview.
var statisticsFirstDay = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// statisticsPages is the number of pages the pageviews go to (page i%it on
// day i), so that the top 100 pages are a real choice.
const statisticsPages = 150

// StatisticsConfiguration is main.tf of a step of the pass: the data source
// over the days (by id, or by domain with the top 100 pages) and outputs of
// what it read.
func StatisticsConfiguration(step string, id int64, days int) string {
	last := statisticsFirstDay.AddDate(0, 0, days-1)
	selector := fmt.Sprintf("website_id = %q", fmt.Sprint(id))
	if step == StepStatisticsByDomain {
		selector = fmt.Sprintf("domain    = %q\n  dimension = \"page\"\n  limit     = 100", statisticsDomain)
	}
	return analyticsProvider + fmt.Sprintf(`
data "analytics_website_statistics" "site" {
  %s
  from = %q
  to   = %q
}

output "pageviews" {
  value = data.analytics_website_statistics.site.pageviews
}

output "visitors" {
  value = data.analytics_website_statistics.site.visitors
}

output "days_with_pageviews" {
  value = length([for d in data.analytics_website_statistics.site.daily : d if d.pageviews > 0])
}

output "top" {
  value = length(coalesce(data.analytics_website_statistics.site.top, []))
}
`, selector, statisticsFirstDay.Format(time.DateOnly), last.Format(time.DateOnly))
}

// statisticsWant is what a step must read and cost: its outputs, and its
// statistics requests and searches.
func statisticsWant(step string, days int) (outputs map[string]int, stats, searches int) {
	pages := (days + 99) / 100
	outputs = map[string]int{"pageviews": days, "visitors": days, "days_with_pageviews": days, "top": 0}
	stats = 2 * max(pages, 1)
	if step == StepStatisticsByDomain {
		outputs["top"] = min(statisticsPages, days, 100)
		stats++
		searches = 1
	}
	return outputs, stats, searches
}

// statisticsPass records a pageview on each of days days and reads them.
func (b *bench) statisticsPass(ctx context.Context, days int) (*Run, error) {
	run := &Run{Pass: PassStatistics, Kind: KindWebsite, N: days}
	api, w, err := b.site(fmt.Sprintf("statistics-%d", days), emulator.Options{})
	if err != nil {
		return run, err
	}
	defer api.close()
	site := api.emu.Seed(emulator.DefaultAPIKey, emulator.Website{Domain: statisticsDomain, Settings: wire.Settings{ExcludeBots: ptr(1)}})
	if !api.emu.SeedStatistics(site.ID, statisticsHistory(days)) {
		return run, errors.New("statistics pass: seeding the website's statistics failed")
	}
	for _, step := range statisticsSteps {
		w.config = func(int, bool) string { return StatisticsConfiguration(step, site.ID, days) }
		if err := w.configure(0, false); err != nil {
			return run, err
		}
		b.runSteps(ctx, run, w, []string{step}, func(step string, s *Step) {
			checkStatisticsRead(s, step, days, w.dir)
		})
	}
	return run, ctx.Err()
}

// statisticsHistory is one pageview on each of n days from
// statisticsFirstDay, as the tracking endpoint records it in the names the
// reads use: a visitor, and the page (page i%statisticsPages on day i).
func statisticsHistory(n int) []emulator.Statistic {
	var out []emulator.Statistic
	for i := range n {
		date := statisticsFirstDay.AddDate(0, 0, i).Format(time.DateOnly)
		out = append(out, emulator.Statistic{Name: "pageviews", Value: date, Date: date, Count: 1},
			emulator.Statistic{Name: "visitors", Value: date, Date: date, Count: 1},
			emulator.Statistic{Name: "page", Value: fmt.Sprintf("/p%03d", i%statisticsPages), Date: date, Count: 1})
	}
	return out
}

// checkStatisticsRead records in s.Error what is wrong with a read: it
// must write nothing, read every day (the outputs in dir's state) and cost
// what statisticsWant says, no more.
func checkStatisticsRead(s *Step, step string, days int, dir string) {
	if s.Error != "" {
		return
	}
	outputs, stats, searches := statisticsWant(step, days)
	got, err := stateOutputs(dir)
	switch {
	case err != nil:
		s.Error = err.Error()
	case fmt.Sprint(got) != fmt.Sprint(outputs):
		s.Error = fmt.Sprintf("the data source read %v, want %v", got, outputs)
	case s.Requests.Writes() != 0:
		s.Error = fmt.Sprintf("%d write requests", s.Requests.Writes())
	case s.Requests.ByRoute[statisticsRoute] != stats || s.Requests.Search != searches || s.Requests.Total != stats+searches:
		s.Error = fmt.Sprintf("%d requests (%d statistics, %d searches), want %d statistics requests and %d searches, nothing else",
			s.Requests.Total, s.Requests.ByRoute[statisticsRoute], s.Requests.Search, stats, searches)
	}
}

// stateOutputs reads the number outputs of the state in dir.
func stateOutputs(dir string) (map[string]int, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		return nil, fmt.Errorf("reading the outputs: %w", err)
	}
	var st struct {
		Outputs map[string]struct {
			Value json.Number `json:"value"`
		} `json:"outputs"`
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("reading the outputs: %w", err)
	}
	out := map[string]int{}
	for k, v := range st.Outputs {
		n, err := v.Value.Int64()
		if err != nil {
			return nil, fmt.Errorf("output %s = %q: %w", k, v.Value, err)
		}
		out[k] = int(n)
	}
	return out, nil
}

// statisticsTargets are the targets of the pass: each read costs no more
// than one request per 100 days of each statistic (and one for the
// dimension, one search for the domain).
func statisticsTargets(res *Results) []Target {
	r := res.run(PassStatistics, KindWebsite, 0)
	if r == nil {
		return nil
	}
	var out []Target
	for _, step := range statisticsSteps {
		_, stats, searches := statisticsWant(step, r.N)
		s := r.step(step)
		out = append(out, Target{Name: fmt.Sprintf("Reading %d days of statistics (%s)", r.N, statisticsLabel(step)),
			Goal: fmt.Sprintf("≤ %d requests", stats+searches)}.measured(s != nil && s.OK(), func() (string, bool) {
			return fmt.Sprintf("%d requests (%d statistics, %d searches), %.2f s", s.Requests.Total,
				s.Requests.ByRoute[statisticsRoute], s.Requests.Search, s.Wall), s.Requests.Total <= stats+searches
		}))
	}
	return out
}

func statisticsLabel(step string) string {
	if step == StepStatisticsByDomain {
		return "by domain, with the top 100 pages"
	}
	return "by id"
}
