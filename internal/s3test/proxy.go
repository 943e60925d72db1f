package s3test

import (
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CountingProxy is a proxy in front of the store that counts the requests
// it passes, by kind (make bench reports what an export costs the store).
type CountingProxy struct {
	URL    string
	srv    *http.Server
	mu     sync.Mutex
	counts map[string]int
}

// NewCountingProxy starts a proxy on loopback in front of endpoint.
func NewCountingProxy(ctx context.Context, endpoint string) (*CountingProxy, error) {
	target, err := url.Parse(endpoint)
	if err != nil {
		return nil, err
	}
	l, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &CountingProxy{URL: "http://" + l.Addr().String(), counts: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(target)
	p.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.counts[requestKind(r)]++
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	})}
	go func() { _ = p.srv.Serve(l) }()
	return p, nil
}

// requestKind names an S3 request: LIST, PUT, PUT (part), POST
// (multipart start or completion), DELETE, GET, HEAD.
func requestKind(r *http.Request) string {
	q := r.URL.Query()
	switch {
	case r.Method == http.MethodGet && (q.Has("list-type") || q.Has("prefix") || strings.Count(strings.Trim(r.URL.Path, "/"), "/") == 0):
		return "LIST"
	case r.Method == http.MethodPut && q.Has("partNumber"):
		return "PUT (part)"
	}
	return r.Method
}

// Counts returns the requests passed so far, by kind, and starts again.
func (p *CountingProxy) Counts() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.counts
	p.counts = map[string]int{}
	return out
}

// FormatCounts writes counts as "2 LIST, 18 PUT", in a stable order.
func FormatCounts(counts map[string]int) string {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, strconv.Itoa(counts[k])+" "+k)
	}
	return strings.Join(parts, ", ")
}

// Close stops the proxy.
func (p *CountingProxy) Close() { _ = p.srv.Close() }
