package emulator

import "net/http"

// SetMaintenance puts the installation into maintenance mode (`php artisan
// down`, as during an upgrade) or takes it out of it (`php artisan up`).
// While it is on, every request, under /api/v1 or not, answers 503
// {"message":"Service Unavailable"} (Laravel's HTML 503 page without
// Accept: application/json): nothing is committed, throttled or counted in
// Stats. Faults.Maintenance has the same effect while those faults are set.
func (e *Emulator) SetMaintenance(on bool) { e.maintenance.Store(on) }

// InMaintenance reports whether the installation is in maintenance mode,
// by SetMaintenance or by Faults.Maintenance.
func (e *Emulator) InMaintenance() bool {
	if e.maintenance.Load() {
		return true
	}
	fi := e.faults.Load()
	return fi != nil && fi.cfg.Maintenance
}

// serveMaintenance answers r with the maintenance 503 and reports true if
// the installation is in maintenance mode. Laravel's
// PreventRequestsDuringMaintenance is global middleware: it runs before
// routing, the throttle and authentication, but after HandleCors: a CORS
// preflight is answered before it (ServeHTTP) and its 503 carries the CORS
// headers.
func (e *Emulator) serveMaintenance(w http.ResponseWriter, r *http.Request) bool {
	fi := e.faults.Load()
	byFault := fi != nil && fi.cfg.Maintenance
	if !byFault && !e.maintenance.Load() {
		return false
	}
	if byFault {
		fi.count(FaultMaintenance, r.Method)
	}
	req := &request{r: r, json: expectsJSON(r)}
	e.send(w, e.withCORS(r, laravelError(req, http.StatusServiceUnavailable, "Service Unavailable", "Service Unavailable")))
	return true
}
