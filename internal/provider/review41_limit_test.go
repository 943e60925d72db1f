package provider

import (
	"regexp"
	"strconv"
	"testing"
)

// TestLimitWarning_review41FailingCountAtMostCreates: a user may hold more
// websites than the plan allows (creates sent in parallel pass the check
// together). 5 held of 3 and one replacement: the plan has one create,
// yet the warning says "at least 2 creates fail". No count of failing
// creates may exceed the creates and replacements planned.
func TestLimitWarning_review41FailingCountAtMostCreates(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`(?:at least|up to) (\d+) creates? (?:fail|may fail)|\b(\d+) creates? fails?\b`)
	events := []limitEvent{limitCreate, limitReplace, limitDelete}
	for limit := 1; limit <= 3; limit++ {
		for have := 0; have <= limit+3; have++ {
			for _, a := range events {
				for _, b := range append(events, -1) {
					order := []limitEvent{a}
					if b >= 0 {
						order = append(order, b)
					}
					creates := 0
					for _, e := range order {
						if e != limitDelete {
							creates++
						}
					}
					for _, w := range limitWarnings(limit, have, order...) {
						for _, m := range re.FindAllStringSubmatch(w, -1) {
							s := m[1]
							if s == "" {
								s = m[2]
							}
							if n, _ := strconv.Atoi(s); n > creates {
								t.Errorf("limit %d, %d held, %v: %q, but the plan has %d create(s): %s",
									limit, have, order, m[0], creates, w)
							}
						}
					}
				}
			}
		}
	}
}

// TestLimitWarning_review41OrderDecidesIgnoresCBD: 4 held of 3 (parallel
// creates passed the check together), the plan replaces c and deletes d.
// Without create_before_destroy the order decides (d's delete first makes
// room for c's). With it, c's create comes while 3 are held even after d's
// delete: refused in every order. The plan's last warning says only "the
// order decides" and never names create_before_destroy, unlike the other
// verdicts.
func TestLimitWarning_review41OrderDecidesIgnoresCBD(t *testing.T) {
	t.Parallel()
	for _, order := range [][]limitEvent{{limitReplace, limitDelete}, {limitDelete, limitReplace}} {
		got := limitWarnings(3, 4, order...)
		if len(got) == 0 {
			t.Errorf("%v: no warning", order)
			continue
		}
		if last := got[len(got)-1]; !regexp.MustCompile(`create_before_destroy`).MatchString(last) {
			t.Errorf("%v: the last warning does not say that with create_before_destroy the replacement "+
				"fails in every order: %s", order, last)
		}
	}
}
