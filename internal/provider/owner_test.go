package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

const testQuiet = 30 * time.Millisecond

// missing runs n operations that all find nothing, concurrently, and
// returns their verdicts.
func missing(g *missingWebsiteGuard, n int) []error {
	ops := make([]*guardedOp, n)
	for i := range ops {
		ops[i] = g.begin()
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, op := range ops {
		wg.Go(func() { errs[i] = op.mayLeaveState(context.Background()) })
	}
	wg.Wait()
	return errs
}

func TestMissingWebsiteGuard(t *testing.T) {
	t.Parallel()
	t.Run("one website deleted, nothing else read", func(t *testing.T) {
		t.Parallel()
		if errs := missing(newMissingWebsiteGuard(testQuiet), 1); errs[0] != nil {
			t.Errorf("refused: %v", errs[0])
		}
	})
	// Two is the smallest "every website": neither may leave, not even
	// the first to get its verdict.
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("all %d websites vanished at once", n), func(t *testing.T) {
			t.Parallel()
			for i, err := range missing(newMissingWebsiteGuard(testQuiet), n) {
				if !errors.Is(err, errVanished) {
					t.Errorf("website %d of %d: %v, want refused", i+1, n, err)
				}
			}
		})
	}
	t.Run("a second vanishes later in the run", func(t *testing.T) {
		t.Parallel()
		g := newMissingWebsiteGuard(testQuiet)
		if errs := missing(g, 1); errs[0] != nil {
			t.Fatalf("first refused: %v", errs[0])
		}
		if errs := missing(g, 1); !errors.Is(errs[0], errVanished) {
			t.Errorf("second: %v, want refused", errs[0])
		}
	})
	t.Run("another website was found", func(t *testing.T) {
		t.Parallel()
		g := newMissingWebsiteGuard(time.Hour) // the verdict must not wait for quiet
		g.begin().end(true)
		for i, err := range missing(g, 2) {
			if err != nil {
				t.Errorf("website %d refused: %v", i, err)
			}
		}
	})
	t.Run("waits for a read under way", func(t *testing.T) {
		t.Parallel()
		g := newMissingWebsiteGuard(testQuiet)
		slow := g.begin()
		done := make(chan error, 1)
		op := g.begin()
		go func() { done <- op.mayLeaveState(context.Background()) }()
		select {
		case err := <-done:
			t.Fatalf("decided while another read was under way: %v", err)
		case <-time.After(5 * testQuiet):
		}
		slow.end(true)
		if err := <-done; err != nil {
			t.Errorf("refused although the other read found its website: %v", err)
		}
	})
	t.Run("an operation that ended without a website does not hold the verdict", func(t *testing.T) {
		t.Parallel()
		g := newMissingWebsiteGuard(testQuiet)
		g.begin().end(false) // e.g. a read that failed
		ctx, cancel := context.WithTimeout(context.Background(), 20*testQuiet)
		defer cancel()
		if err := g.begin().mayLeaveState(ctx); err != nil {
			t.Errorf("got %v, want the lone missing website let go once all is quiet", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		g := newMissingWebsiteGuard(time.Hour)
		g.begin() // never ends
		ctx, cancel := context.WithTimeout(context.Background(), testQuiet)
		defer cancel()
		if err := g.begin().mayLeaveState(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v, want the context's error", err)
		}
	})
}

func TestWebsiteOwnerString(t *testing.T) {
	t.Parallel()
	for want, o := range map[string]websiteOwner{
		"user #1 (Alice, alice@example.test)": {ID: 1, Name: "Alice", Email: "alice@example.test"},
		"user #2 (bob@example.test)":          {ID: 2, Email: "bob@example.test"},
		"user #3":                             {ID: 3},
	} {
		if got := o.String(); got != want {
			t.Errorf("%+v: got %q, want %q", o, got, want)
		}
	}
}

// fakePrivate is a private state of one provider call.
type fakePrivate map[string][]byte

func (p fakePrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

func (p fakePrivate) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	p[key] = value
	return nil
}

// The private state keeps only the owner's id (every byte of a website's
// state is written again after each change of an apply), and what it keeps
// reads back as the same user.
func TestRememberOwnerKeepsOnlyTheID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := fakePrivate{}
	var diags diag.Diagnostics
	remember(ctx, p, &websiteOwner{ID: 7, Name: "Alice", Email: "alice@example.test"}, &diags)
	if got := string(p[ownerKey]); got != `{"id":7}` {
		t.Errorf("private state %q, want {\"id\":7}", got)
	}
	if o := rememberedOwner(ctx, p, &diags); o == nil || *o != (websiteOwner{ID: 7}) {
		t.Errorf("remembered %+v, want user #7", o)
	}
	// A state written by an earlier build of this release (name and
	// e-mail too) still reads.
	p[ownerKey] = []byte(`{"id":3,"name":"Bob","email":"bob@example.test"}`)
	if o := rememberedOwner(ctx, p, &diags); o == nil || o.ID != 3 {
		t.Errorf("remembered %+v, want user #3", o)
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
}
