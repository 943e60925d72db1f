package redact

import (
	"html"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The decoders let String find a secret that an escaper wrote otherwise
// than the forms (FormsOf) do: String also looks for the forms in the
// text each decoder makes, and maps what it finds there back to the
// text's own bytes.

// decoders undo one kind of escaping each, for a text holding trigger;
// decode returns the decoded text and, for each of its bytes, the offset
// in text where the byte's escape starts (and len(text) at the end).
var decoders = []struct {
	trigger byte
	decode  func(string) (string, []int)
}{
	{'%', func(t string) (string, []int) { return percentDecode(t, false) }},
	{'+', func(t string) (string, []int) { return percentDecode(t, true) }},
	{'\\', backslashDecode},
	{'&', referenceDecode},
}

// percentDecode decodes every valid %XX escape of text (and, with plus,
// every "+" as a space); from[i] is the offset in text of the decoded
// byte i, from[len(decoded)] == len(text).
func percentDecode(text string, plus bool) (decoded string, from []int) {
	b := make([]byte, 0, len(text))
	from = make([]int, 0, len(text)+1)
	for i := 0; i < len(text); {
		from = append(from, i)
		switch {
		case text[i] == '%' && i+2 < len(text) && isHex(text[i+1]) && isHex(text[i+2]):
			b = append(b, unhex(text[i+1])<<4|unhex(text[i+2]))
			i += 3
		case text[i] == '+' && plus:
			b = append(b, ' ')
			i++
		default:
			b = append(b, text[i])
			i++
		}
	}
	return string(b), append(from, len(text))
}

// backslashDecode decodes the backslash escapes of JSON and Go quotes
// (\uXXXX in either case, with surrogate pairs; \xXX; \/ \" \\ \' \n \t
// \r \b \f); other backslashes stay.
func backslashDecode(text string) (string, []int) {
	b := make([]byte, 0, len(text))
	from := make([]int, 0, len(text)+1)
	for i := 0; i < len(text); {
		r, n := rune(-1), 0
		if text[i] == '\\' && i+1 < len(text) {
			switch c := text[i+1]; c {
			case 'u':
				r, n = backslashU(text[i:])
			case 'x':
				if i+3 < len(text) && isHex(text[i+2]) && isHex(text[i+3]) {
					b = append(b, unhex(text[i+2])<<4|unhex(text[i+3]))
					from = append(from, i)
					i += 4
					continue
				}
			case '/', '"', '\\', '\'':
				r, n = rune(c), 2
			case 'n', 't', 'r', 'b', 'f':
				r, n = rune("\n\t\r\b\f"[strings.IndexByte("ntrbf", c)]), 2
			}
		}
		if n == 0 {
			b = append(b, text[i])
			from = append(from, i)
			i++
			continue
		}
		for range utf8.RuneLen(r) {
			from = append(from, i)
		}
		b = utf8.AppendRune(b, r)
		i += n
	}
	return string(b), append(from, len(text))
}

// backslashU reads \uXXXX (and a low surrogate's \uXXXX after a high one)
// at the start of s: the rune and the bytes read, or 0 bytes.
func backslashU(s string) (rune, int) {
	u, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if !utf16.IsSurrogate(u) {
		return u, 6
	}
	if low, ok := hex4(s[min(6, len(s)):]); ok {
		if r := utf16.DecodeRune(u, low); r != utf8.RuneError {
			return r, 12
		}
	}
	return 0, 0
}

// hex4 reads \uXXXX at the start of s.
func hex4(s string) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		if !isHex(c) {
			return 0, false
		}
		r = r<<4 | rune(unhex(c))
	}
	return r, true
}

// namedReferences are the HTML character references escapers write most
// often by name; every other name HTML5 defines (PHP's htmlentities with
// ENT_HTML5 writes "/" as &sol;, "=" as &equals;, "?" as &quest;) is read
// by html.UnescapeString.
var namedReferences = map[string]rune{"quot": '"', "amp": '&', "lt": '<', "gt": '>', "apos": '\''}

// referenceDecode decodes HTML character references: numeric (&#47;
// &#x2F; &#X2f;) and named (&quot; &sol; &eacute;), each ended by ";".
func referenceDecode(text string) (string, []int) {
	b := make([]byte, 0, len(text))
	from := make([]int, 0, len(text)+1)
	for i := 0; i < len(text); {
		chars, n := "", 0
		if text[i] == '&' {
			chars, n = reference(text[i:])
		}
		if n == 0 {
			b = append(b, text[i])
			from = append(from, i)
			i++
			continue
		}
		for range len(chars) {
			from = append(from, i)
		}
		b = append(b, chars...)
		i += n
	}
	return string(b), append(from, len(text))
}

// reference reads an HTML character reference at the start of s (which
// starts with "&"): the characters it stands for (a few names stand for
// two) and the bytes read, or 0 bytes.
func reference(s string) (string, int) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 33 { // the longest name, &CounterClockwiseContourIntegral;, has 31 letters
		return "", 0
	}
	body := s[1:end]
	if r, ok := namedReferences[body]; ok {
		return string(r), end + 1
	}
	if body[0] != '#' {
		if strings.IndexFunc(body, func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9')
		}) >= 0 {
			return "", 0
		}
		if chars := html.UnescapeString(s[:end+1]); chars != s[:end+1] && !strings.HasSuffix(chars, ";") {
			return chars, end + 1
		}
		return "", 0
	}
	if len(body) < 2 || len(body) > 10 {
		return "", 0
	}
	base, digits := 10, body[1:]
	if digits[0] == 'x' || digits[0] == 'X' {
		base, digits = 16, digits[1:]
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || digits == "" || digits[0] == '+' || n > unicode.MaxRune || utf16.IsSurrogate(rune(n)) {
		return "", 0
	}
	return string(rune(n)), end + 1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
