package emulator

// How PHP reads a form: a query string or urlencoded body (parse_str) and
// a multipart/form-data body, as they reach a Laravel request's bags.

import (
	"bytes"
	"io"
	"mime/multipart"
	"strconv"
	"strings"
)

// parsePHPQuery parses a query string like PHP's parse_str: "&" separates
// pairs, "+" is a space, malformed escapes are kept literally, "." and " " in
// names become "_", and a name with brackets makes an array.
func parsePHPQuery(s string) *params {
	p := newParams()
	for pair := range strings.SplitSeq(s, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		name := strings.TrimLeft(phpURLDecode(k), " ")
		if name == "" {
			continue
		}
		var val any = phpURLDecode(v)
		if i := strings.IndexByte(name, '['); i > 0 && strings.Contains(name[i:], "]") {
			name = name[:i]
			val = phpArray{}
		} else if i == 0 {
			continue
		}
		name = strings.NewReplacer(".", "_", " ", "_").Replace(name)
		p.set(name, val)
	}
	return p
}

// phpURLDecode decodes like PHP's urldecode: "+" is a space and only valid
// %XX escapes are decoded.
func phpURLDecode(s string) string {
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

// parseMultipart reads the non-file fields of a multipart/form-data body.
func parseMultipart(raw []byte, boundary string) *params {
	p := newParams()
	for _, f := range multipartFields(raw, boundary) {
		name := strings.TrimLeft(f[0], " ") // as parsePHPQuery: PHP drops the spaces that begin a name
		if name == "" {
			continue
		}
		if i := strings.IndexByte(name, '['); i > 0 && strings.Contains(name[i:], "]") {
			p.set(name[:i], phpArray{})
			continue
		} else if i == 0 {
			continue
		}
		p.set(strings.NewReplacer(".", "_", " ", "_").Replace(name), f[1])
	}
	return p
}

// multipartFields are the name and value of each non-file field of a
// multipart/form-data body, in order.
func multipartFields(raw []byte, boundary string) [][2]string {
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
