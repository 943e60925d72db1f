package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
	"github.com/analytics-tf/terraform-provider-analytics/internal/php"
)

// maxBody is PHP's default post_max_size (8M). Larger bodies are refused
// with 413 like Laravel's ValidatePostSize middleware does.
const maxBody = 8 << 20

// errBodyTooLarge reports a request body over maxBody.
var errBodyTooLarge = errors.New("request body too large")

// phpArray stands for a PHP array that arrived as input (php.Array).
type phpArray = php.Array

// params is an ordered parameter bag with PHP semantics: a repeated key keeps
// the position of its first occurrence and the value of its last.
type params struct {
	keys []string
	vals map[string]any
}

func newParams() *params { return &params{vals: map[string]any{}} }

// paramsOf is the bag of fields PHP parsed (php.ParseStr, php.ParseMultipart).
func paramsOf(names []string, values map[string]any) *params {
	p := newParams()
	for _, k := range names {
		p.set(k, values[k])
	}
	return p
}

// parsePHPQuery parses a query string like PHP's parse_str.
func parsePHPQuery(s string) *params { return paramsOf(php.ParseStr(s)) }

// parseMultipart reads the non-file fields of a multipart/form-data body.
func parseMultipart(raw []byte, boundary string) *params {
	return paramsOf(php.ParseMultipart(raw, boundary))
}

func (p *params) set(k string, v any) {
	if _, ok := p.vals[k]; !ok {
		p.keys = append(p.keys, k)
	}
	p.vals[k] = v
}

func (p *params) has(k string) bool {
	_, ok := p.vals[k]
	return ok
}

func (p *params) get(k string) any { return p.vals[k] }

// input is the request input as a Laravel controller sees it, after the
// TrimStrings (unless Options.NoTrimStrings) and ConvertEmptyStringsToNull
// middleware.
type input struct {
	query *params // the query string
	form  *params // the "request" bag: a form body (urlencoded or multipart) or the JSON body
	body  *params // the input source: JSON body, form body or query
}

// has reports whether key is present in the input (body or query), like
// Laravel's $request->has().
func (in *input) has(k string) bool { return in.body.has(k) || in.query.has(k) }

// get returns $request->input(k): the body value, else the query value.
func (in *input) get(k string) any {
	if in.body.has(k) {
		return in.body.get(k)
	}
	return in.query.get(k)
}

// readInput parses r's query string and body the way PHP, Symfony and
// Laravel do.
func readInput(r *http.Request, trim bool) (*input, error) {
	in := &input{query: parsePHPQuery(r.URL.RawQuery), form: newParams()}
	ct := r.Header.Get("Content-Type")
	isJSON := laravel.IsJSON(ct)
	mediaType, mtParams, _ := mime.ParseMediaType(ct)
	method := r.Method

	var raw []byte
	if r.Body != nil && r.Body != http.NoBody {
		var err error
		raw, err = io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			return nil, err
		}
		if len(raw) > maxBody {
			return nil, errBodyTooLarge
		}
	}

	switch {
	case mediaType == "application/x-www-form-urlencoded" &&
		(method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch || method == http.MethodDelete):
		// PHP fills $_POST for POST; Symfony parses the body itself for
		// PUT, PATCH and DELETE.
		in.form = parsePHPQuery(string(raw))
	case mediaType == "multipart/form-data" && method == http.MethodPost:
		// PHP parses multipart bodies for POST only (the classic Laravel
		// "PUT with multipart loses its fields" quirk).
		in.form = parseMultipart(raw, mtParams["boundary"])
	}

	switch {
	case isJSON:
		// Laravel replaces the request bag by the JSON bag.
		in.body = parseJSONBody(raw)
		in.form = in.body
	case method == http.MethodGet || method == http.MethodHead:
		in.body = in.query
	default:
		in.body = in.form
	}

	for _, p := range []*params{in.query, in.form, in.body} {
		cleanParams(p, trim)
	}
	return in, nil
}

// parseJSONBody decodes a JSON body like Laravel's $request->json(): anything
// but a JSON object gives no input, and so does invalid UTF-8 (json_decode
// fails on it, where Go's decoder would read U+FFFD).
func parseJSONBody(raw []byte) *params {
	p := newParams()
	if !utf8.Valid(raw) {
		return p
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return p
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return newParams()
		}
		k, ok := kt.(string)
		if !ok {
			return newParams()
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return newParams()
		}
		p.set(k, php.JSONValue(v))
	}
	if _, err := dec.Token(); err != nil {
		return newParams()
	}
	return p
}

// cleanParams applies Laravel's TrimStrings (when trim is set; passwords are
// exempt) and ConvertEmptyStringsToNull middleware.
func cleanParams(p *params, trim bool) {
	for _, k := range p.keys {
		s, ok := p.vals[k].(string)
		if !ok {
			continue
		}
		if trim && k != "password" && k != "password_confirmation" && k != "current_password" {
			s = laravel.Trim(s)
		}
		if s == "" {
			p.vals[k] = nil
		} else {
			p.vals[k] = s
		}
	}
}

// phpEmpty reports PHP's empty(): null, "", "0", false, 0 and 0.0.
func phpEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == "" || x == "0"
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0
	default:
		return false
	}
}

// The PHP semantics the rules use (package php).
var (
	phpString  = php.String  // the string cast
	phpNumeric = php.Numeric // is_numeric
)

// filterInt mirrors filter_var($v, FILTER_VALIDATE_INT), the test behind
// Laravel's integer rule.
func filterInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, false
	case float64, string:
		s, _ := phpString(x)
		s = strings.Trim(s, " \t\n\r\v\x00")
		if s == "" {
			return 0, false
		}
		digits := s
		if digits[0] == '+' || digits[0] == '-' {
			digits = digits[1:]
		}
		if digits == "" || (len(digits) > 1 && digits[0] == '0') {
			return 0, false
		}
		for i := 0; i < len(digits); i++ {
			if digits[i] < '0' || digits[i] > '9' {
				return 0, false
			}
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		return n, true
	default:
		return 0, false
	}
}
