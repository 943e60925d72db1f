package client_test

// TestBulkLookupExploreConcurrent with other seeds
// (LOOKUP_EXPLORE_SEEDS=1, LOOKUP_SEED=n; timing-dependent,
// outside any gate).

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

func exploreSeed() uint64 {
	n, _ := strconv.ParseUint(os.Getenv("LOOKUP_SEED"), 10, 64)
	return n + 1000
}

func TestBulkLookupExploreConcurrentSeeds(t *testing.T) {
	if os.Getenv("LOOKUP_EXPLORE_SEEDS") == "" {
		t.Skip("exploration")
	}
	rng := rand.New(rand.NewPCG(exploreSeed(), 23))
	runs := 300
	if os.Getenv("LOOKUP_FAULTS") != "" {
		runs = 80
	}
	for run := range runs {
		h := []int{10, 120, 240}[rng.IntN(3)]
		p := []int{0, 99, 100, 150, 199, 200, 249}[rng.IntN(7)]
		if p == h {
			continue
		}
		kind := rng.IntN(3)
		at := 1 + rng.IntN(10)
		undo := at + 1 + rng.IntN(6)
		exploreConcOne(t, run, h, p, kind, at, undo)
	}
	t.Logf("%d lookup answers checked, %d lookup errors", exploreAnswers.Load(), exploreErrs.Load())
}
