package emulator

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/analytics-tf/terraform-provider-analytics/internal/phpjson"
)

// object is an ordered JSON object, rendered with its keys in slice order
// like a PHP associative array.
type object []member

// member is one key of an object.
type member struct {
	key   string
	value any
}

// encodePHP renders v as PHP's json_encode does with its default flags (the
// flags Laravel's JsonResponse uses): compact, "/" escaped as "\/", every
// non-ASCII character escaped as \uXXXX, and "<", ">", "&" and "'" left as is.
//
// Supported values are nil, bool, int, int64, float64, string, object, []any,
// []object and map[string]int (keys in sorted order).
func encodePHP(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := writePHP(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writePHP(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		s, err := phpFloat(x)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case string:
		return writePHPString(b, x)
	case object:
		b.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writePHPString(b, m.key); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := writePHP(b, m.value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []object:
		b.WriteByte('[')
		for i, o := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writePHP(b, o); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writePHP(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case []string:
		b.WriteByte('[')
		for i, s := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writePHPString(b, s); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		return errors.New("emulator: unsupported JSON value")
	}
	return nil
}

// phpFloat formats a float like PHP 7.1+ with serialize_precision -1: the
// shortest representation, with ".0" kept on integral values.
func phpFloat(f float64) (string, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "", errors.New("inf and NaN cannot be JSON encoded")
	}
	s := strconv.FormatFloat(f, 'G', -1, 64)
	if strings.ContainsAny(s, "E") {
		// PHP writes 1.0e+25; Go writes 1E+25.
		mant, exp, _ := strings.Cut(s, "E")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		return mant + "e" + exp, nil
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s, nil
}

// phpFloatString is PHP's (string) of a float, as string interpolation
// gives it: precision 14 (the ini default), and the exponent form ("1.0E+15",
// "1.5E-7") when the decimal exponent is below -4 or above 13, as zend_gcvt
// writes it.
func phpFloatString(f float64) string {
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

// encodeLaravelException renders {"message": message} as Laravel's
// exception handler does for a request that expects JSON
// (prepareJsonResponse: JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), e.g.
//
//	{
//	    "message": "Too Many Attempts."
//	}
//
// A message that cannot be encoded becomes "Server Error".
func encodeLaravelException(message string) []byte {
	var b bytes.Buffer
	b.WriteString("{\n    \"message\": ")
	if err := writePHPStringFlags(&b, message, false); err != nil {
		return encodeLaravelException("Server Error")
	}
	b.WriteString("\n}")
	return b.Bytes()
}

// writePHPString writes s as a PHP json_encode string literal.
func writePHPString(b *bytes.Buffer, s string) error { return writePHPStringFlags(b, s, true) }

// writePHPStringFlags writes s as a PHP json_encode string literal, with
// "/" escaped unless JSON_UNESCAPED_SLASHES (escapeSlash false).
func writePHPStringFlags(b *bytes.Buffer, s string, escapeSlash bool) error {
	return phpjson.WriteString(b, s, escapeSlash)
}
