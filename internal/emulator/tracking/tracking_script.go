package tracking

// The tracking script, GET <PathPrefix>/js/script.js: what the tracking
// code on a website loads. The installation's web server serves it as a
// static file, before the application sees the request: no key, no
// throttle, not counted in Stats, served in maintenance mode too.

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // the script's source
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

// ScriptPath is where the tracking script is served, below the
// installation's base URL (with the emulator's Options.PathPrefix).
const ScriptPath = "/js/script.js"

// ScriptID is the id of the tracking code's script element, by
// which the script finds its own data-host and data-dnt attributes.
const ScriptID = "ZwSg9rf6GA"

// trackingScript is the emulator's own tracking script, which does what
// the application's does (JSON pageviews over XMLHttpRequest, single-page
// navigation, custom events, Do Not Track): see tracking_script.js.
//
//go:embed tracking_script.js
var trackingScript []byte

// trackingScriptETag is the script's strong entity tag.
var trackingScriptETag = func() string {
	sum := sha256.Sum256(trackingScript)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}()

// ServeScript serves the tracking script of the installation below prefix
// as a web server serves a static file (conditional and range requests,
// HEAD) and reports whether r asked for it.
func ServeScript(w http.ResponseWriter, r *http.Request, prefix string) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	if !ok || rest != ScriptPath {
		return false
	}
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "405 Not Allowed", http.StatusMethodNotAllowed)
		return true
	}
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("ETag", trackingScriptETag)
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "script.js", time.Time{}, bytes.NewReader(trackingScript))
	return true
}
