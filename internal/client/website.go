package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// Privacy values of a website's statistics page, as the API encodes them.
const (
	PrivacyPublic   = 0
	PrivacyPrivate  = 1
	PrivacyPassword = 2
)

// Website is a tracked website as the API returns it.
//
// The API is loose about types (see internal/emulator/README.md): privacy, email and
// exclude_bots arrive as integers, numeric strings, booleans or null, and
// favorite fields exist only in newer builds. Each settings column the record
// returns (wire.Columns) is the field tagged with its name, typed by its
// kind: an Integer as *int (nil: the server holds NULL), Text as a string
// ("" for NULL: the server never stores ""), Lines split on CR and LF, empty
// lines dropped (nil for NULL), a Secret as whether one is set.
type Website struct {
	ID          int64
	Domain      string
	Privacy     *int     `wire:"privacy"`
	Email       *int     `wire:"email"`
	ExcludeBots *int     `wire:"exclude_bots"`
	PasswordSet bool     `wire:"password"`
	ExcludeIPs  []string `wire:"exclude_ips"`
	// Favorite is nil when the server build does not know favorites.
	Favorite  *bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// PrivacyValue returns the privacy setting, treating NULL as the
// application does (public).
func (w Website) PrivacyValue() int { return intOr(w.Privacy, nullOf("privacy")) }

// EmailValue reports whether e-mail reports are enabled (NULL means disabled).
func (w Website) EmailValue() bool { return intOr(w.Email, nullOf("email")) != 0 }

// ExcludeBotsValue reports whether bots are excluded (NULL means not excluded).
func (w Website) ExcludeBotsValue() bool { return intOr(w.ExcludeBots, nullOf("exclude_bots")) != 0 }

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// looseInt decodes an integer sent as a number, a numeric string, a boolean
// or null (nil).
func looseInt(raw json.RawMessage) (*int, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var s string
	switch t := v.(type) {
	case bool:
		n := 0
		if t {
			n = 1
		}
		return &n, nil
	case json.Number:
		s = t.String()
	case string:
		s = strings.TrimSpace(t)
		if s == "" {
			return nil, nil
		}
	default:
		return nil, fmt.Errorf("expected an integer, got %s", snippet(raw, 40))
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != float64(int(f)) {
			return nil, fmt.Errorf("expected an integer, got %q", s)
		}
		n = int(f)
	}
	return &n, nil
}

// looseBool decodes a boolean sent as a boolean, a number, a numeric string
// or null (nil).
func looseBool(raw json.RawMessage) (*bool, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return &b, nil
	}
	n, err := looseInt(raw)
	if err != nil {
		return nil, fmt.Errorf("expected a boolean, got %s", snippet(raw, 40))
	}
	if n == nil {
		return nil, nil
	}
	b = *n != 0
	return &b, nil
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("expected an RFC 3339 timestamp, got %q", s)
}

// SplitLines splits a stored exclusion list on CR and LF (CRLF, lone CR or
// LF) and drops empty lines, as the application does when it applies the
// list. Entries are NOT trimmed: the application matches them as they are,
// so an entry with stray spaces (or of spaces only) never matches, and must
// show as such.
func SplitLines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
}

// WebsiteInput holds the fields sent on store and update, each tagged with
// its form field (a settings column's name, wire.Columns): form derives the
// request from the tags. Every field that is not a pointer is always sent,
// because the server stores NULL for absent fields on store; a pointer
// (Password, or an attribute added since 0.1.0 while its plan value is
// unknown) is left out when nil. Domain is only sent on store (the server
// ignores it on update).
type WebsiteInput struct {
	Domain      string `form:"domain,store"`
	Privacy     int    `form:"privacy"`
	Email       bool   `form:"email"`
	ExcludeBots bool   `form:"exclude_bots"`
	// Password is sent when non-nil. An empty string clears the stored
	// password, which the server accepts only with privacy 0 or 1.
	Password      *string  `form:"password"`
	ExcludeParams []string `form:"exclude_params"`
	// OmitExcludeParams leaves exclude_params out of the request, so that the
	// server keeps its value (on update) or stores NULL (on store). The API
	// never returns the field, so a caller that does not manage it must not
	// send it.
	OmitExcludeParams bool     `form:"-"`
	ExcludeIPs        []string `form:"exclude_ips"`
	// OmitExcludeIPs leaves exclude_ips out of an update, so that the
	// server keeps its list (one the caller does not manage).
	OmitExcludeIPs bool `form:"-"`
	// OnlyExcludeIPs sends exclude_ips alone on update (a write-back of
	// the list with nothing else planned): the server keeps every other
	// field as stored.
	OnlyExcludeIPs bool `form:"-"`
	// KeepOnUpdate are form fields left out of an update, so that the
	// server keeps them as stored (ones the update does not change).
	KeepOnUpdate []string `form:"-"`
}

// form is the request's form: every field tagged form, as the API reads it
// (an int in decimal, a bool as 1 or 0, a list one entry per line in an
// order the server's trimming keeps, a nil pointer left out, a nil []string
// sent as an empty list); a field tagged ",store" only on store
// (withDomain).
func (in WebsiteInput) form(withDomain bool) url.Values {
	v := url.Values{}
	rv := reflect.ValueOf(in)
	for i, f := range reflect.VisibleFields(rv.Type()) {
		name, opt, _ := strings.Cut(f.Tag.Get("form"), ",")
		if name == "" || name == "-" || (opt == "store" && !withDomain) {
			continue
		}
		if !setFormField(v, name, rv.Field(i).Interface()) {
			panic(fmt.Sprintf("WebsiteInput.%s: no form encoding for %s", f.Name, f.Type))
		}
	}
	if in.OmitExcludeParams {
		v.Del("exclude_params")
	}
	if in.OmitExcludeIPs && !withDomain {
		v.Del("exclude_ips")
	}
	if !withDomain {
		for _, name := range in.KeepOnUpdate {
			v.Del(name)
		}
	}
	if in.OnlyExcludeIPs && !withDomain {
		only := url.Values{}
		if ips, ok := v["exclude_ips"]; ok {
			only["exclude_ips"] = ips
		}
		v = only
	}
	return v
}

// SendsOnUpdate reports whether an update with in sends the form field
// name (for example "exclude_params" or "password"), as form encodes it.
func (in WebsiteInput) SendsOnUpdate(name string) bool {
	_, ok := in.form(false)[name]
	return ok
}

// setFormField sets the form field name to fv as the API reads it (an int
// in decimal, a bool as 1 or 0, a list one entry per line), nothing for a
// nil pointer (a *[]string too: a list left out); false for a type it
// cannot encode.
func setFormField(v url.Values, name string, fv any) bool {
	switch fv := fv.(type) {
	case string:
		v.Set(name, fv)
	case int:
		v.Set(name, strconv.Itoa(fv))
	case bool:
		v.Set(name, boolDigit(fv))
	case []string:
		lines, _ := laravel.KeptOrder(fv) // a plan refuses lines no order keeps
		v.Set(name, strings.Join(lines, "\n"))
	case *string, *int, *bool, *[]string:
		if p := reflect.ValueOf(fv); !p.IsNil() {
			return setFormField(v, name, p.Elem().Interface())
		}
	default:
		return false
	}
	return true
}

func boolDigit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// dataEnvelope is the {"data": ..., "status": 200} wrapper of show, store
// and update answers.
type dataEnvelope struct {
	Data *Website `json:"data"`
}

func websitePath(id int64) string { return "/websites/" + strconv.FormatInt(id, 10) }

func (c *Client) websiteCall(ctx context.Context, method, path string, form url.Values) (*Website, error) {
	var env dataEnvelope
	if err := c.do(ctx, method, path, nil, form, &env); err != nil {
		return nil, err
	}
	if env.Data == nil {
		return nil, &APIError{Kind: ErrUndecodable, Method: method, Path: path, StatusCode: http.StatusOK,
			Err: fmt.Errorf(`expected a website record under "data"`)}
	}
	c.markVerified()
	return env.Data, nil
}

// GetWebsite returns one website (GET /websites/{id}).
func (c *Client) GetWebsite(ctx context.Context, id int64) (*Website, error) {
	return c.websiteCall(ctx, http.MethodGet, websitePath(id), nil)
}

// DeleteWebsite deletes a website (DELETE /websites/{id}).
func (c *Client) DeleteWebsite(ctx context.Context, id int64) error {
	var out struct {
		Deleted *bool `json:"deleted"`
	}
	if err := c.do(ctx, http.MethodDelete, websitePath(id), nil, nil, &out); err != nil {
		return err
	}
	if out.Deleted != nil && !*out.Deleted {
		return &APIError{Kind: ErrServer, Method: http.MethodDelete, Path: websitePath(id), StatusCode: http.StatusOK,
			Message: `the server answered "deleted": false`}
	}
	if out.Deleted != nil {
		c.markVerified()
	}
	return nil
}
