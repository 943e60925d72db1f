// Package phpjson writes strings as PHP's json_encode does: the emulator
// answers with it as the application does, and the redactor knows a secret
// in that form. It imports nothing of the module.
package phpjson

import (
	"bytes"
	"errors"
	"unicode/utf8"
)

// ErrMalformedUTF8 mirrors PHP's JSON_ERROR_UTF8: json_encode refuses
// strings that are not valid UTF-8.
var ErrMalformedUTF8 = errors.New("malformed UTF-8 characters, possibly incorrectly encoded")

const hexDigits = "0123456789abcdef"

// Escape is s as json_encode writes it with its default flags, without the
// quotes: "/" escaped as "\/", every character outside ASCII as \uXXXX
// (UTF-16, lower-case hex), control characters as \b \f \n \r \t or
// \u00XX, and "<", ">", "&" and "'" left as they are.
func Escape(s string) (string, error) {
	var b bytes.Buffer
	if err := WriteString(&b, s, true); err != nil {
		return "", err
	}
	return b.String()[1 : b.Len()-1], nil
}

// WriteString writes s as a PHP json_encode string literal, with
// "/" escaped unless JSON_UNESCAPED_SLASHES (escapeSlash false).
func WriteString(b *bytes.Buffer, s string, escapeSlash bool) error {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '/':
				if escapeSlash {
					b.WriteByte('\\')
				}
				b.WriteByte('/')
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				if c < 0x20 {
					writeU16(b, uint16(c))
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return ErrMalformedUTF8
		}
		if r > 0xFFFF {
			r -= 0x10000
			writeU16(b, uint16(0xD800+(r>>10)))
			writeU16(b, uint16(0xDC00+(r&0x3FF)))
		} else {
			writeU16(b, uint16(r))
		}
		i += size
	}
	b.WriteByte('"')
	return nil
}

func writeU16(b *bytes.Buffer, u uint16) {
	b.WriteString(`\u`)
	b.WriteByte(hexDigits[u>>12&0xF])
	b.WriteByte(hexDigits[u>>8&0xF])
	b.WriteByte(hexDigits[u>>4&0xF])
	b.WriteByte(hexDigits[u&0xF])
}
