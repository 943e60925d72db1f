package bench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// apiServer is an emulator served on a local port.
type apiServer struct {
	emu *emulator.Emulator
	// log records every request's arrival and answer, for what the
	// emulator's counters do not tell (searches, the throttle's waits).
	log *requestLog
	srv *http.Server
	url string
}

func startAPI(opts emulator.Options) (*apiServer, error) {
	emu, err := emulator.New(opts)
	if err != nil {
		return nil, err
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	log := &requestLog{}
	srv := &http.Server{Handler: log.wrap(emu), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &apiServer{emu: emu, log: log, srv: srv, url: "http://" + ln.Addr().String()}, nil
}

// resetStats sets the emulator's counters and the request log back to
// zero.
func (s *apiServer) resetStats() {
	s.emu.ResetStats()
	s.log.reset()
}

// requests returns the step's requests, from the emulator's counters and
// the request log.
func (s *apiServer) requests() Requests {
	r := requestsFrom(s.emu.Stats())
	r.Search = s.log.searches()
	r.List -= r.Search
	return r
}

// requestsFrom reads the emulator's counters. GET /websites counts as List
// (the caller separates the searches).
func requestsFrom(s emulator.Stats) Requests {
	r := Requests{
		Total:     s.Total,
		List:      s.ByRoute["GET /api/v1/websites"],
		Show:      s.ByRoute["GET /api/v1/websites/{id}"],
		Post:      s.ByMethod["POST"],
		Put:       s.ByMethod["PUT"] + s.ByMethod["PATCH"],
		Delete:    s.ByMethod["DELETE"],
		Throttled: s.Throttled,
		ByStatus:  s.ByStatus,
		ByRoute:   s.ByRoute,
	}
	r.OtherGet = s.ByMethod["GET"] - r.List - r.Show
	return r
}

func (s *apiServer) close() { _ = s.srv.Close() }

// seed stores n websites that Terraform does not manage.
func (s *apiServer) seed(n int) {
	for i := range n {
		s.emu.Seed(emulator.DefaultAPIKey, emulator.Website{
			Domain: fmt.Sprintf("seeded-%d.bench-example.com", i), Settings: wire.Settings{Privacy: ptr(0), Email: ptr(0), ExcludeBots: ptr(1)},
		})
	}
}

// site starts an emulator with opts and a workspace of websites, named
// name, that talks to it; the caller closes the server.
func (b *bench) site(name string, opts emulator.Options) (*apiServer, *workspace, error) {
	api, err := startAPI(opts)
	if err != nil {
		return nil, nil, err
	}
	w, err := b.newWorkspace(name, KindWebsite, api)
	if err != nil {
		api.close()
		return nil, nil, err
	}
	return api, w, nil
}

func ptr[T any](v T) *T { return &v }
