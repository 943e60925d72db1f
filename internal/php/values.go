package php

// The values PHP gives a program: json_decode's, the string cast,
// is_numeric, urlencode and mb_substr.

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Array stands for a PHP array that arrived as input (a JSON array or
// object, or a form key like "a[]"). The emulator never needs its content:
// every rule that sees one fails, as it does in Laravel.
type Array struct{}

// JSONValue converts a decoded JSON value (decoded with UseNumber) to the
// PHP value json_decode gives.
func JSONValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := x.String()
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return n
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.Inf(1)
		}
		return f
	case []any, map[string]any:
		return Array{}
	default:
		return x // nil, bool, string
	}
}

// String converts a scalar like PHP's string cast. ok is false for arrays.
func String(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	case bool:
		if x {
			return "1", true
		}
		return "", true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return FloatString(x), true
	default:
		return "", false
	}
}

// numericRE matches PHP 8 numeric strings.
var numericRE = regexp.MustCompile(`^[ \t\n\r\v\f]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$`)

// Numeric returns the value of v when PHP's is_numeric(v) is true.
func Numeric(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		if !numericRE.MatchString(x) {
			return 0, false
		}
		f, err := strconv.ParseFloat(strings.Trim(x, " \t\n\r\v\f"), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, false
		}
		return f, true
	default:
		return 0, false
	}
}

// FloatString is PHP's (string) of a float, as string interpolation
// gives it: precision 14 (the ini default), and the exponent form ("1.0E+15",
// "1.5E-7") when the decimal exponent is below -4 or above 13, as zend_gcvt
// writes it.
func FloatString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NAN"
	case math.IsInf(f, 1):
		return "INF"
	case math.IsInf(f, -1):
		return "-INF"
	case f == 0:
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', 13, 64), "e") // d.ddddddddddddde±XX, rounded as PHP does
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	e, _ := strconv.Atoi(exp)
	if f >= 1e14 && f < 1e15 && f == math.Trunc(f) {
		// zend_dtoa's path for a whole number keeps the 14 digits' trailing
		// zeros when it rounds a tie down to even ("3.8431515945350E+14").
		whole := strconv.FormatFloat(f, 'f', 0, 64)
		if whole[14] == '5' && (whole[13]-'0')%2 == 0 {
			digits = whole[:14]
		}
	}
	switch decpt := e + 1; {
	case decpt < -3 || decpt > 14:
		m := digits[:1] + "." + digits[1:]
		if len(digits) == 1 {
			m += "0"
		}
		if e >= 0 {
			return sign + m + "E+" + strconv.Itoa(e)
		}
		return sign + m + "E" + strconv.Itoa(e)
	case decpt <= 0:
		return sign + "0." + strings.Repeat("0", -decpt) + digits
	case decpt >= len(digits):
		return sign + digits + strings.Repeat("0", decpt-len(digits))
	default:
		return sign + digits[:decpt] + "." + digits[decpt:]
	}
}

// URLEncode is PHP's urlencode: letters, digits and "-_." kept, space
// as "+", everything else %XX.
func URLEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}

// Substr is mb_substr($s, 0, n): s cut to its first n characters.
func Substr(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// LooseEqualsInt is PHP 8's $v == $n for an integer $n: a bool compares as
// bool (true == 2), null as false, a number or numeric string by value
// ("2", " 2", "2.0", 2.0), any other string or an array never.
func LooseEqualsInt(v any, n int64) bool {
	switch x := v.(type) {
	case bool:
		return x == (n != 0)
	case nil:
		return n == 0
	}
	f, ok := Numeric(v)
	return ok && f == float64(n)
}
