package s3test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
)

// FailingProxy is the store behind a proxy that refuses every upload
// (PUT) after the first ok ones with a 500, as a store that fills up or
// falls over in the middle of an export; reads, lists and deletes pass.
// Storing ok in OKLeft starts again.
type FailingProxy struct {
	*httptest.Server
	Puts, OKLeft atomic.Int64
	// RefuseDeletes answers every DELETE with 403 AccessDenied, as a
	// store does for keys without s3:DeleteObject or under object lock.
	RefuseDeletes atomic.Bool
	// SwallowDeletes answers every DELETE with 204 without deleting, as a
	// store does for a key it does not hold (S3 succeeds for a missing key).
	SwallowDeletes atomic.Bool
}

// NewFailingProxy starts a FailingProxy in front of store, stopped when t
// ends.
func NewFailingProxy(t testing.TB, store *Server) *FailingProxy {
	t.Helper()
	target, err := url.Parse(store.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	p := &FailingProxy{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete && p.RefuseDeletes.Load() {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			_, _ = fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied`+
				`</Code><Message>refused by the test</Message></Error>`)
			return
		}
		if r.Method == http.MethodDelete && p.SwallowDeletes.Load() {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if r.Method == http.MethodPut {
			p.Puts.Add(1)
			if p.OKLeft.Add(-1) < 0 {
				_, _ = io.Copy(io.Discard, r.Body) // as a store does before it answers
				w.Header().Set("Content-Type", "application/xml")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError`+
					`</Code><Message>injected by the test</Message></Error>`)
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}
