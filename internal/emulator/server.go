package emulator

import "net/http/httptest"

// Server is an emulator behind a running httptest.Server.
type Server struct {
	*Emulator
	// URL is the base URL of the installation (with Options.PathPrefix, and
	// without /api/v1), e.g. "http://127.0.0.1:40123".
	URL string
	// HTTP is the underlying test server.
	HTTP *httptest.Server
}

// TB is what NewServer needs of a test: a *testing.T, *testing.B or
// *testing.F (testing.TB) has it. The emulator takes this much rather than
// testing.TB, so that the standalone emulator (internal/cmd/analytics-emulator)
// does not link the testing package.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// NewServer starts an emulator configured by opts on a local port and
// registers t.Cleanup to stop it. It fails t if opts are invalid.
func NewServer(t TB, opts Options) *Server {
	t.Helper()
	e, err := New(opts)
	if err != nil {
		t.Fatalf("emulator: %v", err)
	}
	hs := httptest.NewServer(e)
	t.Cleanup(hs.Close)
	return &Server{Emulator: e, URL: hs.URL + e.opts.PathPrefix, HTTP: hs}
}
