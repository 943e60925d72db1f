package client

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Sentinel errors that callers branch on with errors.Is. Every error returned
// for an API answer is an *APIError that matches exactly one of them.
var (
	// ErrNotFound: 404, the id is unknown or belongs to another user.
	ErrNotFound = errors.New("not found")
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
