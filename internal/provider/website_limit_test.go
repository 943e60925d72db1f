package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// limitWarnings plans events in order against limit and have, as one
// command's websites would, and returns the warnings' details.
func limitWarnings(limit, have int, events ...limitEvent) []string {
	var c planCounter
	var out []string
	for _, e := range events {
		t := c.add(e)
		if e == limitDelete && t.creates+t.replaces == 0 {
			continue // no check: nothing needs its room (warnLimit)
		}
		var diags diag.Diagnostics
		addLimitWarning(&diags, e, creatingLead(types.StringValue("x.example.com")), limit, have, t)
		for _, d := range diags {
			out = append(out, d.Summary()+": "+d.Detail())
		}
	}
	return out
}

// TestLimitWarning_order: whether a plan gets a limit warning does not
// depend on the order its websites are planned in, and a warning never says
// the plan fits when another create takes the room a replacement's delete
// makes.
func TestLimitWarning_order(t *testing.T) {
	t.Parallel()
	orders := func(a, b limitEvent) [][]limitEvent { return [][]limitEvent{{a, b}, {b, a}} }
	// 3 of 3 held, a create and a replacement: the replacement cannot fit
	// in any order, and no warning may say it does.
	for _, o := range orders(limitCreate, limitReplace) {
		got := limitWarnings(3, 3, o...)
		if len(got) == 0 {
			t.Fatalf("3 of 3, %v: no warning", o)
		}
		if last := got[len(got)-1]; !strings.Contains(last, "at least 1 create fails") || strings.Contains(last, "fits") {
			t.Errorf("3 of 3, %v: the last warning: %s", o, last)
		}
	}
	// The create planned first: the replacement's warning never says it
	// fits.
	for _, w := range limitWarnings(3, 3, limitCreate, limitReplace) {
		if strings.Contains(w, "fits") {
			t.Errorf("3 of 3, a create then a replacement: says it fits: %s", w)
		}
	}
	// 2 of 3 held, a replacement (create_before_destroy or not) and a
	// create: a warning in either order, saying what create_before_destroy
	// does.
	for _, o := range orders(limitCreate, limitReplace) {
		got := limitWarnings(3, 2, o...)
		if len(got) != 1 || !strings.Contains(got[0], "With lifecycle { create_before_destroy = true }") {
			t.Errorf("2 of 3, %v: %q", o, got)
		}
	}
	// A delete makes room only if it runs first: the order decides.
	if got := limitWarnings(3, 3, limitDelete, limitCreate); len(got) != 1 || !strings.Contains(got[0], "the order decides") {
		t.Errorf("3 of 3, a delete then a create: %q", got)
	}
	if got := limitWarnings(3, 3, limitCreate, limitDelete); len(got) != 2 || !strings.Contains(got[0], "a delete planned later warns again") || !strings.Contains(got[1], "the order decides") {
		t.Errorf("3 of 3, a create then a delete: %q", got)
	}
	if got := limitWarnings(3, 1, limitCreate, limitReplace); len(got) != 0 {
		t.Errorf("1 of 3, a create and a replacement: %q", got)
	}
}

// TestLimitWarning_counts: the advice over the limit counts the websites
// to delete first for each order of a replacement, and no count reads
// "1 websites" or "1 creates".
func TestLimitWarning_counts(t *testing.T) {
	t.Parallel()
	got := limitWarnings(3, 4, limitReplace)
	if len(got) != 1 || !strings.Contains(got[0], "delete 1 website you no longer need (2 if the replacements use create_before_destroy)") {
		t.Errorf("4 held of 3, a replacement: %q", got)
	}
	bad := regexp.MustCompile(`\b1 (websites|creates)\b|(up to|at least|delete) (0|-)`)
	events := []limitEvent{limitCreate, limitReplace, limitDelete}
	for limit := range 4 {
		for have := range 5 {
			for _, a := range events {
				for _, b := range events {
					for _, w := range limitWarnings(limit, have, a, b, limitCreate) {
						if bad.MatchString(w) {
							t.Errorf("limit %d, %d held, %v %v create: %s", limit, have, a, b, w)
						}
					}
				}
			}
		}
	}
}
