package emulator

import (
	"fmt"
	"html"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// redirect renders Symfony's RedirectResponse.
func redirect(url string) *Response {
	u := html.EscapeString(url)
	body := fmt.Sprintf(`<!DOCTYPE html>
<html>
    <head>
        <meta charset="UTF-8" />
        <meta http-equiv="refresh" content="0;url='%[1]s'" />

        <title>Redirecting to %[1]s</title>
    </head>
    <body>
        Redirecting to <a href="%[1]s">%[1]s</a>.
    </body>
</html>`, u)
	resp := &Response{Status: http.StatusFound, Header: http.Header{}, Body: []byte(body)}
	resp.Header.Set("Location", url)
	resp.Header.Set("Content-Type", "text/html; charset=UTF-8")
	resp.Header.Set("Cache-Control", "no-cache, private")
	return resp
}

// notFoundBody is the application's 404.
var notFoundBody = object{{"message", "Resource not found."}, {"status", 404}}

// jsonResponse renders v as PHP would. If v cannot be encoded (malformed
// UTF-8), the answer is Laravel's 500.
func jsonResponse(status int, v any) *Response {
	body, err := encodePHP(v)
	if err != nil {
		return exceptionResponse(http.StatusInternalServerError, "Server Error")
	}
	return jsonBodyResponse(status, body)
}

// exceptionResponse is Laravel's exception handler's JSON answer (see
// encodeLaravelException): pretty-printed, no "status" key.
func exceptionResponse(status int, message string) *Response {
	return jsonBodyResponse(status, encodeLaravelException(message))
}

func jsonBodyResponse(status int, body []byte) *Response {
	resp := &Response{Status: status, Header: http.Header{}, Body: body}
	resp.Header.Set("Content-Type", "application/json")
	resp.Header.Set("Cache-Control", "no-cache, private")
	return resp
}

// laravelError renders an exception the way Laravel's default handler does:
// a pretty-printed {"message": ...} for a request that expects JSON (see
// encodeLaravelException), else an HTML error page.
func laravelError(req *request, status int, message, title string) *Response {
	if req.json {
		return exceptionResponse(status, message)
	}
	body := fmt.Sprintf(`<!DOCTYPE html>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        <title>%[2]s</title>
    </head>
    <body class="antialiased">
        <div class="flex items-center">%[1]d | %[2]s</div>
    </body>
</html>
`, status, html.EscapeString(title))
	resp := &Response{Status: status, Header: http.Header{}, Body: []byte(body)}
	resp.Header.Set("Content-Type", "text/html; charset=UTF-8")
	resp.Header.Set("Cache-Control", "no-cache, private")
	return resp
}

// serverError is Laravel's answer to an unhandled exception.
func serverError(req *request) *Response {
	return laravelError(req, http.StatusInternalServerError, "Server Error", "Server Error")
}

// expectsJSON mirrors Laravel's $request->expectsJson(): an XHR accepting
// anything, or a first acceptable content type containing "/json" or "+json".
func expectsJSON(r *http.Request) bool {
	types := acceptableTypes(strings.Join(r.Header.Values("Accept"), ","))
	wantsJSON := len(types) > 0 && (strings.Contains(strings.ToLower(types[0]), "/json") ||
		strings.Contains(strings.ToLower(types[0]), "+json"))
	ajax := r.Header.Get("X-Requested-With") == "XMLHttpRequest"
	pjax := r.Header.Get("X-PJAX") != "" && r.Header.Get("X-PJAX") != "0"
	acceptsAny := len(types) == 0 || types[0] == "*/*" || types[0] == "*"
	return (ajax && !pjax && acceptsAny) || wantsJSON
}

// acceptableTypes parses an Accept header like Symfony's AcceptHeader:
// values ordered by quality, then by position.
func acceptableTypes(h string) []string {
	type item struct {
		value string
		q     float64
		index int
	}
	var items []item
	seen := map[string]int{}
	for i, part := range strings.Split(h, ",") {
		value, attrs, _ := strings.Cut(part, ";")
		value = strings.TrimSpace(value)
		if value == "" {
			continue
		}
		q := 1.0
		for a := range strings.SplitSeq(attrs, ";") {
			k, v, _ := strings.Cut(a, "=")
			if strings.TrimSpace(k) == "q" {
				if f, err := strconv.ParseFloat(strings.Trim(strings.TrimSpace(v), `"`), 64); err == nil {
					q = f
				}
			}
		}
		if j, ok := seen[value]; ok {
			items[j] = item{value, q, i}
			continue
		}
		seen[value] = len(items)
		items = append(items, item{value, q, i})
	}
	sort.SliceStable(items, func(a, b int) bool {
		if items[a].q != items[b].q {
			return items[a].q > items[b].q
		}
		return items[a].index < items[b].index
	})
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.value
	}
	return out
}

// routeNotFound is Laravel's answer to a path no route matches, outside the
// API's prefix (whose fallback route answers "Resource not found."):
// {"message":"The route PATH could not be found."} (no status key) when the
// client asks for JSON, else the HTML error page. PATH is
// $request->path(): the raw request path below the installation's
// PathPrefix, without its slashes at both ends ("/" for the root). A path
// outside PathPrefix (which a real web server may not even pass on to the
// application) is printed whole.
func (e *Emulator) routeNotFound(r *http.Request) *Response {
	path := r.URL.EscapedPath()
	if rest, ok := strings.CutPrefix(path, e.opts.PathPrefix); ok && (rest == "" || rest[0] == '/') {
		path = rest
	}
	if path = strings.Trim(path, "/"); path == "" {
		path = "/"
	}
	req := &request{r: r, json: expectsJSON(r)}
	return laravelError(req, http.StatusNotFound, fmt.Sprintf("The route %s could not be found.", path), "Not Found")
}
