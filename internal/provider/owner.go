package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
)

// ownerKey is the private state key of a website's owner: the user that
// created or imported it (remember). The API answers "Resource not found."
// both for a website that was deleted and for one that belongs to another
// user of the installation, so a pipeline given another user's (valid) key
// would see every managed website vanish. Where the server answers GET
// /account (newer builds), the provider learns once per run whose the key
// is (providerData.keyOwner) and checkOwner refuses the websites of another
// user; a website of the key's user that the API reports missing was really
// deleted. Where the owner is not known, missingWebsiteGuard decides.
const ownerKey = "owner"

// websiteOwner is a user of the installation, as GET /account describes it.
type websiteOwner struct {
	ID    int64  `json:"id"`
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
}

func ownerOf(a *client.Account) *websiteOwner {
	if a == nil {
		return nil
	}
	return &websiteOwner{ID: a.ID, Name: a.Name, Email: a.Email}
}

// String names the user for messages: user #1 (Alice, alice@example.com).
func (o websiteOwner) String() string {
	s := fmt.Sprintf("user #%d", o.ID)
	switch {
	case o.Name != "" && o.Email != "":
		s += fmt.Sprintf(" (%s, %s)", o.Name, o.Email)
	case o.Name != "" || o.Email != "":
		s += fmt.Sprintf(" (%s%s)", o.Name, o.Email)
	}
	return s
}

// privateGetter and privateSetter are the private state of framework
// requests and responses (its type is internal to the framework).
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// rememberedOwner returns the owner remembered in a website's private state,
// or nil when none is (a website imported or created by provider 0.1.0).
func rememberedOwner(ctx context.Context, p privateGetter, diags *diag.Diagnostics) *websiteOwner {
	if p == nil {
		return nil
	}
	raw, d := p.GetKey(ctx, ownerKey)
	diags.Append(d...)
	if len(raw) == 0 {
		return nil
	}
	var o websiteOwner
	if err := json.Unmarshal(raw, &o); err != nil || o.ID == 0 {
		// Not fatal: the owner is learnt again on the next successful read.
		tflog.Warn(ctx, "ignoring an unreadable owner in the private state", map[string]any{"value_length": len(raw)})
		return nil
	}
	return &o
}

// remember stores o's id as the website's owner in its private state. Only
// the id: Terraform writes the whole state file after every change, so each
// byte of a website's state costs a little in every step of an apply of
// many websites (see BENCHMARKS.md). Messages name the key's user in full.
func remember(ctx context.Context, p privateSetter, o *websiteOwner, diags *diag.Diagnostics) {
	if o == nil || p == nil {
		return
	}
	raw, err := json.Marshal(websiteOwner{ID: o.ID})
	if err != nil {
		diags.AddError("Unable to Remember the Website's Owner", err.Error())
		return
	}
	diags.Append(p.SetKey(ctx, ownerKey, raw)...)
}

// checkOwner fails when the website's remembered owner is not the key's
// user: such a website is never read, changed, deleted or dropped, and the
// error names both users. key is nil when the server cannot tell (older
// builds).
func checkOwner(diags *diag.Diagnostics, op string, m websiteResourceModel, remembered, key *websiteOwner) bool {
	if remembered == nil || key == nil || remembered.ID == key.ID {
		return true
	}
	addOwnerMismatch(diags, op, m.Domain.ValueString(), m.ID.ValueString(), *remembered, *key)
	return false
}

// owners returns the owner remembered for the website and the API key's
// user (nil where unknown), or adds an error and reports false when they
// differ or the key's user cannot be learnt. op is "read", "update" or
// "delete".
func (r *websiteResource) owners(ctx context.Context, op string, m websiteResourceModel, p privateGetter,
	diags *diag.Diagnostics,
) (remembered, owner *websiteOwner, ok bool) {
	remembered = rememberedOwner(ctx, p, diags)
	owner, ok = r.keyOwnerOf(ctx, op, m, remembered, diags)
	return remembered, owner, ok
}

// keyOwnerOf returns the API key's user (nil where unknown), or adds an
// error and reports false when it differs from remembered or cannot be
// learnt.
func (r *websiteResource) keyOwnerOf(ctx context.Context, op string, m websiteResourceModel, remembered *websiteOwner,
	diags *diag.Diagnostics,
) (owner *websiteOwner, ok bool) {
	owner, err := r.data.keyOwner(ctx)
	if err != nil {
		addAPIError(diags, op, m.Domain.ValueString(), err)
		return nil, false
	}
	return owner, checkOwner(diags, op, m, remembered, owner)
}

// mayLeaveState decides whether a website the API reports missing (the
// application's own "not found", at a base URL proven to serve the API) may
// leave the state, or adds an error. It may when its remembered owner is the
// key's user; when the owner is unknown, the missingWebsiteGuard decides.
func (r *websiteResource) mayLeaveState(ctx context.Context, op *guardedOp, verb string, m websiteResourceModel,
	remembered, owner *websiteOwner, diags *diag.Diagnostics,
) bool {
	if remembered != nil && owner != nil {
		return true // same user (checkOwner passed): it was deleted
	}
	err := op.mayLeaveState(ctx)
	if err == nil {
		return true
	}
	addVanishedError(diags, verb, m.Domain.ValueString(), m.ID.ValueString(), owner, err)
	return false
}

// defaultQuietPeriod is how long no read or delete must have started or
// ended before missingWebsiteGuard gives its verdict.
const defaultQuietPeriod = time.Second

// missingWebsiteGuard decides, for the websites whose owner is unknown
// (older builds without GET /account, or a state written by provider 0.1.0
// that has not been refreshed since), whether one the API reports missing
// may leave the state, so that a refresh with another user's key, in which
// every managed website vanishes at once, fails instead. One guard serves
// every read and delete of a provider instance (one Terraform command).
// (The client reports client.ErrNotFound only for the application's own
// answer at a base URL proven to serve the API, so a wrong base_url never
// comes here: see client.ErrNotAPI.)
//
// Terraform reads the managed websites concurrently without saying how many
// there are. A missing website may leave the state at once when the run has
// already found another website (the key sees its user's websites, so this
// one was deleted). Otherwise its read waits until no other read or delete
// is under way and none has started for the quiet period: if it is then the
// only missing one, it may leave; if several vanished and none was found,
// every one of them is refused, and so is every later one of the run.
type missingWebsiteGuard struct {
	quiet time.Duration

	mu                 sync.Mutex
	active             int           // operations under way that have not reported missing
	waiting            int           // missing websites waiting for the verdict
	found              int           // operations that found their website
	leftWhileNoneFound int           // websites allowed to leave while nothing was found
	refused            bool          // once set, every website reported missing in the run is refused
	last               time.Time     // last start or end of an operation
	changed            chan struct{} // closed and replaced whenever the above change
}

func newMissingWebsiteGuard(quiet time.Duration) *missingWebsiteGuard {
	if quiet <= 0 {
		quiet = defaultQuietPeriod
	}
	return &missingWebsiteGuard{quiet: quiet, changed: make(chan struct{})}
}

// guardedOp is one read or delete of a managed website.
type guardedOp struct {
	g    *missingWebsiteGuard
	done bool
}

// begin registers an operation; end it with found, or ask mayLeaveState.
func (g *missingWebsiteGuard) begin() *guardedOp {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.active++
	g.markChangedLocked()
	return &guardedOp{g: g}
}

// markChangedLocked records that an operation started or ended, and wakes
// the waiting verdicts. The caller holds g.mu.
func (g *missingWebsiteGuard) markChangedLocked() {
	g.last = time.Now()
	close(g.changed)
	g.changed = make(chan struct{})
}

// end reports that the operation ended without a verdict to ask for (an
// error, or a website found when found is true). It is safe to call twice.
func (op *guardedOp) end(found bool) {
	g := op.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if op.done {
		return
	}
	op.done = true
	g.active--
	if found {
		g.found++
	}
	g.markChangedLocked()
}

// errVanished is returned by mayLeaveState when a website may not leave.
var errVanished = errors.New("every managed website read so far in this run vanished at once")

// mayLeaveState waits for the verdict on a website the API reported
// missing: nil means it may leave the state.
func (op *guardedOp) mayLeaveState(ctx context.Context) error {
	g := op.g
	g.mu.Lock()
	if !op.done {
		op.done = true
		g.active--
	}
	g.waiting++
	g.markChangedLocked()
	defer func() {
		g.waiting--
		g.markChangedLocked()
		g.mu.Unlock()
	}()
	for {
		switch {
		case g.found > 0:
			return nil
		case g.refused:
			return errVanished
		}
		quietFor := time.Since(g.last)
		if g.active == 0 && quietFor >= g.quiet {
			if g.waiting >= 2 || g.leftWhileNoneFound >= 1 {
				g.refused = true
				return errVanished
			}
			g.leftWhileNoneFound++
			return nil
		}
		wait := g.quiet - quietFor
		if g.active > 0 || wait <= 0 {
			wait = g.quiet
		}
		changed := g.changed
		g.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			g.mu.Lock()
			return ctx.Err()
		}
		t.Stop()
		g.mu.Lock()
	}
}
