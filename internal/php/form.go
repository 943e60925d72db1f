// Package php is what PHP itself does to a request's values, as the
// application (a PHP program) reads them: a query string or form
// (parse_str, urldecode, urlencode), a multipart/form-data body, the values
// json_decode gives, the string cast, is_numeric and mb_substr. The
// emulator's Website API and its tracking endpoint both read their input
// with it. It imports nothing of the module.
package php

// How PHP reads a form: a query string or urlencoded body (parse_str) and
// a multipart/form-data body, as they reach a Laravel request's bags.

import (
	"bytes"
	"io"
	"mime/multipart"
	"strconv"
	"strings"
)

// ParseStr parses a query string like PHP's parse_str: "&" separates
// pairs, "+" is a space, malformed escapes are kept literally, "." and " " in
// names become "_", and a name with brackets makes an array. It returns
// the names in the order they first appear and the value of each (a string
// or an Array): a repeated name keeps its first position and its last
// value, as in PHP's arrays.
func ParseStr(s string) (names []string, values map[string]any) {
	f := newFields()
	for pair := range strings.SplitSeq(s, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		name := strings.TrimLeft(URLDecode(k), " ")
		if name == "" {
			continue
		}
		var val any = URLDecode(v)
		if i := strings.IndexByte(name, '['); i > 0 && strings.Contains(name[i:], "]") {
			name = name[:i]
			val = Array{}
		} else if i == 0 {
			continue
		}
		name = strings.NewReplacer(".", "_", " ", "_").Replace(name)
		f.set(name, val)
	}
	return f.names, f.values
}

// fields is an ordered set of fields with PHP's semantics.
type fields struct {
	names  []string
	values map[string]any
}

func newFields() *fields { return &fields{values: map[string]any{}} }

func (f *fields) set(k string, v any) {
	if _, ok := f.values[k]; !ok {
		f.names = append(f.names, k)
	}
	f.values[k] = v
}

// URLDecode decodes like PHP's urldecode: "+" is a space and only valid
// %XX escapes are decoded.
func URLDecode(s string) string {
	if !strings.ContainsAny(s, "+%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b.WriteByte(' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(n))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// ParseMultipart reads the non-file fields of a multipart/form-data body,
// named and ordered as ParseStr does.
func ParseMultipart(raw []byte, boundary string) (names []string, values map[string]any) {
	f := newFields()
	for _, field := range MultipartFields(raw, boundary) {
		name := strings.TrimLeft(field[0], " ") // as ParseStr: PHP drops the spaces that begin a name
		if name == "" {
			continue
		}
		if i := strings.IndexByte(name, '['); i > 0 && strings.Contains(name[i:], "]") {
			f.set(name[:i], Array{})
			continue
		} else if i == 0 {
			continue
		}
		f.set(strings.NewReplacer(".", "_", " ", "_").Replace(name), field[1])
	}
	return f.names, f.values
}

// MultipartFields are the name and value of each non-file field of a
// multipart/form-data body, in order.
func MultipartFields(raw []byte, boundary string) [][2]string {
	if boundary == "" {
		return nil
	}
	var fields [][2]string
	mr := multipart.NewReader(bytes.NewReader(raw), boundary)
	for {
		part, err := mr.NextPart()
		if err != nil {
			// io.EOF, or a malformed body: PHP keeps what it parsed.
			return fields
		}
		name := part.FormName()
		if name == "" || part.FileName() != "" {
			continue
		}
		v, err := io.ReadAll(part)
		if err != nil {
			return fields
		}
		fields = append(fields, [2]string{name, string(v)})
	}
}
