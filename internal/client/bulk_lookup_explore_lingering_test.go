package client_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// Explorer (timing: real Linger): concurrent held-domain checks.
// Run with BULK_EXPLORE=1; not for the gate.
func TestExploreConcurrentHolders(t *testing.T) {
	if os.Getenv("BULK_EXPLORE") == "" {
		t.Skip("explorer")
	}
	for _, n := range []int{3, 8, 12, 19, 21, 30} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			env := newBulkEnv(t)
			env.seed(1000)
			b := client.NewBulkReader(env.c, client.BulkReaderOptions{})
			var doms []string
			for i := range n {
				doms = append(doms, fmt.Sprintf("new-%d.example.net", i))
			}
			for d, err := range runAll(t, doms, 8, 0, func(c context.Context, d string) error {
				_, err := b.FindHolders(c, d, func(s string) bool { return s == d })
				return err
			}) {
				if err != nil {
					t.Fatal(d, err)
				}
			}
			total, _, _ := env.requests()
			better := min(n, 20)
			t.Logf("%d concurrent checks: %d requests, better %d; %+v", n, total, better, b.Stats())
			if total > 2*better+2 {
				t.Errorf("over bound")
			}
		})
	}
}

// Explorer: concurrent imports (lookup then Read), Linger off.
func TestExploreConcurrentImports(t *testing.T) {
	if os.Getenv("BULK_EXPLORE") == "" {
		t.Skip("explorer")
	}
	for _, n := range []int{5, 9, 10, 11, 12, 15, 20} {
		for _, workers := range []int{1, 2, 4, 10} {
			t.Run(fmt.Sprint(n, "/", workers), func(t *testing.T) {
				env := newBulkEnv(t)
				ids := env.seed(1000)
				b := client.NewBulkReader(env.c, client.BulkReaderOptions{Linger: -1, Clock: newFakeClock().Now})
				for d, err := range runAll(t, domainsOf(env, ids[100:100+n]), workers, 0, func(c context.Context, d string) error {
					w, err := b.FindByDomain(c, d)
					if err != nil {
						return err
					}
					_, err = b.Read(c, w.ID)
					return err
				}) {
					if err != nil {
						t.Fatal(d, err)
					}
				}
				total, _, _ := env.requests()
				better := min(n, 20)
				t.Logf("%d imports, %d workers: %d requests, better %d; %+v", n, workers, total, better, b.Stats())
				if total > 2*better+2 {
					t.Errorf("over bound")
				}
			})
		}
	}
}
