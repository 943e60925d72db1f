package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// Sentinel errors that callers branch on with errors.Is. Every error returned
// for an API answer is an *APIError that matches exactly one of them.
var (
	// ErrNotFound: the application's own 404 "Resource not found.": the id
	// is unknown or belongs to another user. It is returned only once the
	// client has seen the base URL answer as the API does (see VerifyAPI):
	// any unknown path under /api/v1 answers exactly the same.
	ErrNotFound = errors.New("not found")
	// ErrNotAPI: an answer that is not the analytics API's: a 404 of
	// another shape (a wrong path prefix, a proxy's HTML page), a redirect
	// to another URL, or the API's "not found" at a base URL that does not
	// answer as the API. The base URL is probably wrong.
	ErrNotAPI = errors.New("not the analytics API")
	// ErrUnauthenticated: 401, or a 302 redirect to the login page: the key is
	// missing or wrong.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrForbidden: 403, the key's plan has no API access or the action is
	// not allowed.
	ErrForbidden = errors.New("forbidden")
	// ErrValidation: 422, the server rejected a field.
	ErrValidation = errors.New("validation failed")
	// ErrRateLimited: 429, the throttle is exhausted.
	ErrRateLimited = errors.New("rate limited")
	// ErrServer: any other status the client does not expect (5xx, 405, ...).
	ErrServer = errors.New("server error")
	// ErrUndecodable: the answer could not be decoded as the documented JSON.
	ErrUndecodable = errors.New("undecodable response")

	// ErrAccountUnsupported: the server has no GET /account (older builds).
	ErrAccountUnsupported = errors.New("the server has no account endpoint")
	// ErrListChanged: the list of websites kept changing while it was read.
	ErrListChanged = errors.New("the list changed while it was read")
	// ErrDuplicateDomain: several websites have the domain looked up.
	ErrDuplicateDomain = errors.New("several websites with one domain")
)

// APIError describes an unsuccessful API call. It never contains the API key.
type APIError struct {
	// Kind is one of the sentinel errors above.
	Kind       error
	Method     string
	Path       string
	StatusCode int
	// Message is the server's message (for validation errors, all field
	// messages joined).
	Message string
	// Fields maps a field name to the server's messages (validation only).
	Fields map[string][]string
	// RetryAfter is the wait the server asked for (429 and 503 only).
	RetryAfter time.Duration
	// Attempts is the number of attempts made when retries were enabled
	// (Options.Retry); the error describes the last one.
	Attempts int
	// Location is the redirect target of a 3xx answer.
	Location string
	// BaseURL is the API root the request went to (ErrNotAPI only).
	BaseURL string
	// Snippet is a short, redacted extract of an undecodable body.
	Snippet string
	// Err is an underlying decoding error, if any.
	Err error
}

// Error implements error.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", e.Method, e.Path)
	switch {
	case e.Kind == ErrUndecodable:
		fmt.Fprintf(&b, "HTTP %d: could not decode the response", e.StatusCode)
		if e.Err != nil {
			fmt.Fprintf(&b, " (%v)", e.Err)
		}
		if e.Snippet != "" {
			fmt.Fprintf(&b, "; body starts with %q", e.Snippet)
		}
	case e.Location != "":
		fmt.Fprintf(&b, "HTTP %d redirect to %s", e.StatusCode, e.Location)
		if e.Kind == ErrUnauthenticated {
			b.WriteString(" (the API key was not accepted)")
		}
		if e.Message != "" && e.Kind != ErrUnauthenticated {
			fmt.Fprintf(&b, ": %s", e.Message)
		}
	case e.Kind == ErrNotAPI:
		fmt.Fprintf(&b, "HTTP %d from %s, which is not the analytics API's answer", e.StatusCode, e.BaseURL)
		switch {
		case e.Message != "" && e.Snippet != "":
			fmt.Fprintf(&b, " (%s; body starts with %q)", e.Message, e.Snippet)
		case e.Message != "":
			fmt.Fprintf(&b, " (%s)", e.Message)
		case e.Snippet != "":
			fmt.Fprintf(&b, " (body starts with %q)", e.Snippet)
		}
	default:
		fmt.Fprintf(&b, "HTTP %d", e.StatusCode)
		if e.Message != "" {
			fmt.Fprintf(&b, ": %s", e.Message)
		}
		if e.Kind == ErrRateLimited && e.RetryAfter > 0 {
			fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
		}
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Is matches the sentinel kind.
func (e *APIError) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying decoding error, if any.
func (e *APIError) Unwrap() error { return e.Err }

// FieldNames returns the names of the fields with validation messages, sorted.
func (e *APIError) FieldNames() []string {
	names := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// AsAPIError returns the *APIError in err's chain, if any.
func AsAPIError(err error) (*APIError, bool) {
	var apiErr *APIError
	ok := errors.As(err, &apiErr)
	return apiErr, ok
}

// snippet returns at most n bytes of b as valid UTF-8, with an ellipsis when cut.
func snippet(b []byte, n int) string {
	s := string(b)
	if len(s) <= n {
		return strings.ToValidUTF8(s, "?")
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], "?") + "…"
}

// redactFields is a 422's field messages with every secret taken out of
// the field names and the messages: a server may echo a value in either.
// Two names that become one after redaction keep all their messages. A
// name of a field the client sends (one the request sent, any of
// WebsiteInput's, or such a name with an item's index, exclude_params.0)
// is the client's own word, not an echo, and is kept: the redactor would
// take "password" for a password "password123" cut short, and the
// provider could no longer tell which attribute the server rejected.
func redactFields(fields map[string][]string, sent url.Values) map[string][]string {
	out := make(map[string][]string, len(fields))
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		rk := redact.String(k)
		if sentName(k, sent) {
			rk = k
		}
		for _, m := range fields[k] {
			out[rk] = append(out[rk], redact.String(m))
		}
	}
	return out
}

// passwordMember is a "password" member whose value is a string, up to
// its closing quote or, cut short, the end of the text.
var passwordMember = regexp.MustCompile(`"password"\s*:\s*"(?:[^"\\]|\\.)*(?:"|\\?$)`)

// withoutPasswords is a JSON answer as an error may quote it: every
// "password" member whose value is a string (the API sends a boolean, but
// a string could be the password itself) replaced by "[REDACTED]". An
// answer that is not JSON as a whole (a PHP warning before or after the
// record, an answer cut short, even inside the password) gets the same
// from passwordMember, as far as its text reads as such a member.
func withoutPasswords(data []byte) []byte {
	if !json.Valid(data) {
		return passwordMember.ReplaceAll(data, []byte(`"password":"[REDACTED]"`))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return data
	}
	found := false
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if _, isString := e.(string); isString && k == "password" {
					t[k], found = "[REDACTED]", true
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	if !found {
		return data
	}
	out, err := json.Marshal(v)
	if err != nil {
		return []byte(`"[REDACTED]"`)
	}
	return out
}

// DuplicateDomainError reports several websites with the domain looked up
// (the application has no unique index on domains).
type DuplicateDomainError struct {
	Domain string
	IDs    []int64
}

func (e *DuplicateDomainError) Error() string {
	return fmt.Sprintf("%d websites have the domain %q (ids %s); import the one you mean by its id",
		len(e.IDs), e.Domain, joinIDs(e.IDs))
}

// Is matches ErrDuplicateDomain.
func (e *DuplicateDomainError) Is(target error) bool { return target == ErrDuplicateDomain }

// DuplicateCreateError reports that a create whose first attempt outlived
// its answer left several websites with its domain, which the client could
// not safely reduce to one.
type DuplicateCreateError struct {
	Domain string
	IDs    []int64
	// Reason says why the extra websites were not removed.
	Reason string
	// Err is the create's last failure when no attempt got a clear answer
	// (nil when one did).
	Err error
}

func (e *DuplicateCreateError) Error() string {
	return fmt.Sprintf("the create of %q left %d websites with that domain on the server (ids %s): %s",
		e.Domain, len(e.IDs), joinIDs(e.IDs), e.Reason)
}

// Is matches ErrDuplicateDomain.
func (e *DuplicateCreateError) Is(target error) bool { return target == ErrDuplicateDomain }

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}

// DeadlineError reports that the client gave up rather than wait past the
// request context's deadline: for a retry, for the server's rate limit
// window, or for RequestsPerMinute. It matches context.DeadlineExceeded.
type DeadlineError struct {
	// Attempts is the number of attempts already made (0: none was sent).
	Attempts int
	// Wait is the wait that was needed; Left the time left before the
	// deadline.
	Wait time.Duration
	Left time.Duration
	// Untimed: the operation had no deadline, and the wait is longer than
	// UntimedWaitLimit (Left).
	Untimed bool
	// Limiter: the wait was the provider's own requests_per_minute.
	Limiter bool
	// Throttled: the wait was the server's rate limit (a 429 answered to
	// this request or to another that shares the limit).
	Throttled bool
	// Reason says what the wait was for.
	Reason string
	// Last is the failure of the last attempt, if any.
	Last error
	// Status is the HTTP status of the last attempt's answer; 0 when it got
	// none (a network error).
	Status int
}

// Error implements error.
func (e *DeadlineError) Error() string {
	var b strings.Builder
	if e.Attempts > 0 {
		fmt.Fprintf(&b, "gave up after %d attempt(s): ", e.Attempts)
	}
	if e.Untimed {
		fmt.Fprintf(&b, "%s, but waiting %s is longer than the %s the provider waits at once for an operation "+
			"without a time limit", e.Reason, roundDuration(e.Wait), roundDuration(UntimedWaitLimit))
	} else {
		fmt.Fprintf(&b, "%s, but waiting %s would end past the operation's deadline (%s left)",
			e.Reason, roundDuration(e.Wait), roundDuration(max(e.Left, 0)))
	}
	if e.Last != nil {
		fmt.Fprintf(&b, "; last attempt: %v", e.Last)
	}
	return b.String()
}

// Unwrap lets errors.Is match context.DeadlineExceeded and the last failure.
func (e *DeadlineError) Unwrap() []error {
	if e.Last == nil {
		return []error{context.DeadlineExceeded}
	}
	return []error{context.DeadlineExceeded, e.Last}
}

func roundDuration(d time.Duration) time.Duration {
	if d >= 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}

// sentName reports whether name is a field of sent or of WebsiteInput's
// form, or one with an item's index (exclude_params.0), as a 422 names it.
func sentName(name string, sent url.Values) bool {
	base, index, indexed := strings.Cut(name, ".")
	if indexed && (index == "" || strings.Trim(index, "0123456789") != "") {
		return false
	}
	return sent.Has(base) || slices.Contains(websiteFormNames(), base)
}

// websiteFormNames are the names of WebsiteInput's form fields.
var websiteFormNames = sync.OnceValue(func() []string {
	var names []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[WebsiteInput]()) {
		if name, _, _ := strings.Cut(f.Tag.Get("form"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
})

// domainMember is a "domain" member of a JSON body and its string value,
// as written (escaped), also in a body cut short that no decoder reads.
var domainMember = regexp.MustCompile(`"domain"\s*:\s*"((?:[^"\\]|\\.)*)`)

// addDomainSecrets registers the user information of every domain a body
// holds (a domain the web interface stored from a pasted URL,
// "user:password@host"): Client.do calls it on every answer it reads,
// before anything decodes, quotes or logs it.
func addDomainSecrets(data []byte) {
	if !bytes.Contains(data, []byte("@")) {
		return // no user information: most answers
	}
	for _, m := range domainMember.FindAllSubmatch(data, -1) {
		redact.AddURLSecrets(string(m[1]))
	}
}
