package emulator

// The websites' routes, as the application's WebsiteController answers
// them: show (GET /websites/{id}), store (POST /websites), update (PUT
// /websites/{id}) and destroy (DELETE /websites/{id}), with the record they
// render. The list (GET /websites) is in paginate.go, the routes are
// dispatched in handler.go.

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/analytics-tf/terraform-provider-analytics/internal/domainrule"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// timeFormat is how Laravel serializes dates.
const timeFormat = "2006-01-02T15:04:05.000000Z"

// echoed holds the raw input values a store/update response shows instead
// of the stored integers (Eloquent returns the attributes as assigned).
type echoed map[string]any

// record renders w as the WebsiteResource does: each column wire.Columns
// returns, with echo overriding an Integer's stored value.
func (e *Emulator) record(w *Website, echo echoed) object {
	o := object{{"id", w.ID}, {"domain", w.Domain}}
	for _, c := range wire.Columns {
		if !c.Returned {
			continue
		}
		stored := w.Get(c.Name)
		var v any
		switch c.Kind {
		case wire.Integer:
			if ev, ok := echo[c.Name]; ok {
				v = ev
			} else if !stored.IsNil() {
				v = int(stored.Elem().Int())
			}
		case wire.Secret:
			v = phpTruthy(stored.String())
		default:
			v = nullString(stored.String())
		}
		o = append(o, member{c.Name, v})
	}
	if !e.opts.OmitFavorite {
		var at any
		if !w.FavoritedAt.IsZero() {
			at = w.FavoritedAt.UTC().Format(timeFormat)
		}
		o = append(o, member{"favorite", w.Favorite}, member{"favorited_at", at})
	}
	return append(o,
		member{"created_at", w.CreatedAt.UTC().Format(timeFormat)},
		member{"updated_at", w.UpdatedAt.UTC().Format(timeFormat)},
	)
}

// phpTruthy is PHP's boolean conversion of a string ("" and "0" are false).
func phpTruthy(s string) bool { return s != "" && s != "0" }

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// dataResponse is {"data":...,"status":200} with the given status line.
func dataResponse(status int, data any) *Response {
	return jsonResponse(status, object{{"data", data}, {"status", 200}})
}

// ownedLocked returns the caller's website with the id of the path.
// Callers hold e.mu.
func (e *Emulator) ownedLocked(req *request) (*Website, bool) {
	id, ok := looseID(req.rawID)
	if !ok {
		return nil, false
	}
	w, ok := e.websites[id]
	if !ok || w.Owner != req.user.Key {
		return nil, false
	}
	return w, true
}

// show is GET /websites/{id}.
func (e *Emulator) show(req *request) *Response {
	e.mu.Lock()
	defer e.mu.Unlock()
	w, ok := e.ownedLocked(req)
	if !ok {
		return jsonResponse(http.StatusNotFound, notFoundBody)
	}
	return dataResponse(http.StatusOK, e.record(w, nil))
}

// destroy is DELETE /websites/{id}.
func (e *Emulator) destroy(req *request) *Response {
	e.mu.Lock()
	defer e.mu.Unlock()
	w, ok := e.ownedLocked(req)
	if !ok {
		return jsonResponse(http.StatusNotFound, notFoundBody)
	}
	if err := e.commitDeleteLocked(w.ID); err != nil {
		return serverError(req)
	}
	return jsonResponse(http.StatusOK, object{
		{"id", w.ID}, {"object", "website"}, {"deleted", true}, {"status", 200},
	})
}

// commitDeleteLocked removes a website with its statistics (the
// application deletes them with it, no archive) and persists; on a failed
// write both are restored. Callers hold e.mu.
func (e *Emulator) commitDeleteLocked(id int64) error {
	w, st := e.websites[id], e.statistics[id]
	delete(e.websites, id)
	delete(e.statistics, id)
	if err := e.persistLocked(); err != nil {
		e.websites[id] = w
		if st != nil {
			e.statistics[id] = st
		}
		return err
	}
	return nil
}

// store is POST /websites.
func (e *Emulator) store(req *request) *Response {
	in := req.in
	// prepareForValidation: the canonical domain is merged into the input.
	d, ok := phpString(in.get("domain"))
	if !ok {
		return serverError(req) // mb_strtolower(array): TypeError
	}
	in.body.set("domain", domainrule.Canonical(d))

	e.mu.Lock()
	defer e.mu.Unlock()
	owned := 0
	for _, w := range e.websites {
		if w.Owner == req.user.Key {
			owned++
		}
	}
	taken := func(d string) bool {
		for _, w := range e.websites {
			if strings.EqualFold(w.Domain, d) {
				return true
			}
		}
		return false
	}
	rules := e.storeRules(in, taken, e.websiteLimitReached(req.user, owned))
	if bag := validate(in, rules); !bag.empty() {
		return validationError(bag)
	}

	w, echo, err := newWebsite(in)
	if err != nil {
		return serverError(req)
	}
	if wait := e.slowCommit(); wait != nil {
		// The uniqueness of the domain was a validation rule; the insert
		// comes later, and nothing stops another store meanwhile.
		e.mu.Unlock()
		wait()
		e.mu.Lock()
	}
	now := e.now()
	w.ID, w.Owner, w.CreatedAt, w.UpdatedAt = e.nextID, req.user.Key, now, now
	if err := e.commitInsertLocked(w); err != nil {
		return serverError(req)
	}
	return dataResponse(http.StatusCreated, e.record(w, echo))
}

// newWebsite builds the website a valid store request creates, with the
// values its response echoes: each column as sent, or its default when
// left out.
func newWebsite(in *input) (*Website, echoed, error) {
	w := &Website{}
	echo := echoed{}
	var err error
	if w.Domain, err = column(in.get("domain")); err != nil {
		return nil, nil, err
	}
	for _, c := range wire.Columns {
		v := c.Default
		if in.has(c.Name) {
			v = in.get(c.Name)
			if c.Kind == wire.Integer {
				echo[c.Name] = v
			}
		}
		stored, err := columnValue(c, v)
		if err != nil {
			return nil, nil, err
		}
		w.Get(c.Name).Set(stored)
	}
	return w, echo, nil
}

// commitInsertLocked inserts w with the next id and persists; on a failed
// write the insert is undone (the id stays consumed, as with
// AUTO_INCREMENT). Callers hold e.mu.
func (e *Emulator) commitInsertLocked(w *Website) error {
	e.nextID++
	stored := w.clone()
	e.websites[w.ID] = &stored
	if err := e.persistLocked(); err != nil {
		delete(e.websites, w.ID)
		return err
	}
	return nil
}

// errColumn is a value MySQL (strict mode) refuses for its column.
var errColumn = errors.New("incorrect value for column")

// columnValue converts a validated value for c's column, as Settings
// holds it.
func columnValue(c wire.Column, v any) (reflect.Value, error) {
	if i, ok := v.(int); ok { // a Default
		v = int64(i)
	}
	if c.Kind != wire.Integer {
		s, err := column(v)
		return reflect.ValueOf(s), err
	}
	if v == nil {
		return reflect.ValueOf((*int)(nil)), nil
	}
	n, ok := filterInt(v)
	// A value outside the column's type (email is a TINYINT, and its rules
	// check no range) passes the rules and fails in the database, a 500.
	if lo, hi := c.DB.Range(); !ok || n < lo || n > hi {
		return reflect.Value{}, errColumn
	}
	i := int(n)
	return reflect.ValueOf(&i), nil
}

// column converts a validated value for a string column ("" for NULL).
func column(v any) (string, error) {
	s, ok := phpString(v)
	if !ok || !utf8.ValidString(s) {
		return "", errColumn
	}
	return s, nil
}

// validationError is the application's 422.
func validationError(bag *errorBag) *Response {
	return jsonResponse(http.StatusUnprocessableEntity, object{{"message", bag.object()}, {"status", 422}})
}

// update is PUT/PATCH /websites/{id}.
func (e *Emulator) update(req *request) *Response {
	in := req.in
	// The form request's authorize(): only admins may send user_id.
	if in.has("user_id") {
		return jsonResponse(http.StatusForbidden, object{
			{"message", "This action is unauthorized."}, {"status", 403},
		})
	}
	rules := updateRules(in)
	if bag := validate(in, rules); !bag.empty() {
		return validationError(bag)
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	cur, ok := e.ownedLocked(req)
	if !ok {
		if e.opts.LegacyUpdateNotFound {
			return jsonResponse(http.StatusNotFound, notFoundBody)
		}
		return serverError(req) // the controller calls a method on null
	}

	w, echo, err := applyUpdate(cur, in)
	if err != nil {
		return serverError(req)
	}
	if w != nil {
		w.UpdatedAt = e.now()
		if err := e.commitReplaceLocked(*w); err != nil {
			return serverError(req)
		}
	} else {
		w = cur // nothing changed: Eloquent does not save or touch
	}
	return dataResponse(http.StatusOK, e.record(w, echo))
}

// applyUpdate returns the website after the update in, or nil if nothing
// changes, and the values the response echoes: each column an update reads
// that the request sends.
func applyUpdate(cur *Website, in *input) (*Website, echoed, error) {
	w := cur.clone()
	echo := echoed{}
	changed := false
	for _, c := range wire.Columns {
		if c.UpdateRules == "" || !in.has(c.Name) {
			continue
		}
		v, err := columnValue(c, in.get(c.Name))
		if err != nil {
			return nil, nil, err
		}
		if c.Kind == wire.Integer {
			echo[c.Name] = in.get(c.Name)
		}
		if dst := w.Get(c.Name); !reflect.DeepEqual(dst.Interface(), v.Interface()) {
			dst.Set(v)
			changed = true
		}
	}
	if !changed {
		return nil, echo, nil
	}
	return &w, echo, nil
}

// commitReplaceLocked stores w over the website with its id and persists;
// on a failed write the old version is restored. Callers hold e.mu.
func (e *Emulator) commitReplaceLocked(w Website) error {
	old := e.websites[w.ID]
	stored := w.clone()
	e.websites[w.ID] = &stored
	if err := e.persistLocked(); err != nil {
		e.websites[w.ID] = old
		return err
	}
	return nil
}
