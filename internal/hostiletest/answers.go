package hostiletest

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf16"
)

// Respond writes answer to w for request r, echoing echoes in it. Every
// answer also carries the echoes in a response header, as a debugging proxy
// would.
func Respond(w http.ResponseWriter, r *http.Request, answer Answer, echoes []string) {
	joined := strings.Join(echoes, " | ")
	w.Header().Set("X-Debug-Request", headerSafe(joined))
	switch answer {
	case FieldErrors:
		var b strings.Builder
		b.WriteString(`{"message":{"domain":[`)
		for i, e := range echoes {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%s"`, PHPEscape("The domain is invalid for "+e+".", false))
		}
		b.WriteString(`]`)
		for _, e := range echoes {
			fmt.Fprintf(&b, `,"%s":["%s"]`, PHPEscape(e, false), PHPEscape("The "+e+" field is not allowed.", false))
		}
		b.WriteString(`},"status":422}`)
		writeBody(w, http.StatusUnprocessableEntity, "application/json", b.String())
	case HTMLPage:
		writeBody(w, http.StatusBadGateway, "text/html; charset=UTF-8",
			"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>\n<h1>Bad Gateway</h1>\n<p>The upstream refused "+
				html.EscapeString(joined)+"</p>\n<pre>"+joined+"</pre>\n</body></html>\n")
	case PHPBody:
		// A cut object: valid JSON up to where the body ends.
		writeBody(w, http.StatusOK, "application/json",
			`{"data":{"request":"`+PHPEscape(joined, false)+`","hex":"`+PHPEscape(joined, true)+`","id":`)
	case Redirect:
		loc := "http://" + r.Host + "/moved/" + url.PathEscape(joined) + "?from=" + url.QueryEscape(joined)
		w.Header().Set("Location", loc)
		w.WriteHeader(http.StatusFound)
	case PasswordJSON:
		body, err := json.Marshal(map[string]any{
			"message": "Server Error", "password": joined, "request": echoes,
			"exception": "ErrorException", "file": "/var/www/app/Http/Controllers/WebsiteController.php",
		})
		if err != nil {
			panic(err) // strings only
		}
		writeBody(w, http.StatusInternalServerError, "application/json", string(body))
	default:
		panic("hostiletest: unknown answer " + string(answer))
	}
}

func writeBody(w http.ResponseWriter, status int, contentType, body string) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// headerSafe drops what a header value cannot hold.
func headerSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// PHPEscape escapes s as the inside of a JSON string written by PHP's
// json_encode: with its default flags ("/" as "\/", "\"" and "\\" escaped,
// every character beyond ASCII as \uXXXX), or with hex set, as with
// JSON_HEX_TAG | JSON_HEX_AMP | JSON_HEX_APOS | JSON_HEX_QUOT ("<", ">",
// "&", "'" and "\"" as \u003C, \u003E, \u0026, \u0027, \u0022).
func PHPEscape(s string, hex bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case hex && strings.ContainsRune(`<>&'"`, r):
			fmt.Fprintf(&b, `\u%04X`, r)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '/':
			b.WriteString(`\/`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < ' ':
			fmt.Fprintf(&b, `\u%04x`, r)
		case r < 0x80:
			b.WriteRune(r)
		default:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, `\u%04x`, u)
			}
		}
	}
	return b.String()
}
