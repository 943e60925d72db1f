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
