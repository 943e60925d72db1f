package emulator

import (
	"net/http"
	"strings"
	"testing"
)

func TestEncodePHP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"slash escaped", "http://a/b", `"http:\/\/a\/b"`},
		{"html chars kept", `<a href='x'>&</a>`, `"<a href='x'>&<\/a>"`},
		{"controls", "a\nb\r\tc\x01\x7f\"\\", `"a\nb\r\tc\u0001` + "\x7f" + `\"\\"`},
		{"non-ASCII escaped", "é€😀", `"\u00e9\u20ac\ud83d\ude00"`},
		{"ordered object", object{{"z", 1}, {"a", nil}, {"m", []any{true, false, int64(-3)}}}, `{"z":1,"a":null,"m":[true,false,-3]}`},
		{"empty list", []object{}, `[]`},
		{"string list", []string{"a", "b/c"}, `["a","b\/c"]`},
		{"floats", []any{2.0, 2.5, 1e25, -0.1}, `[2.0,2.5,1.0e+25,-0.1]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := encodePHP(tc.in)
			if err != nil || string(got) != tc.want {
				t.Errorf("got %s, %v; want %s", got, err, tc.want)
			}
		})
	}
	if _, err := encodePHP("bad \xff"); err == nil {
		t.Error("malformed UTF-8 encoded")
	}
}

func TestEncodeLaravelException(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ message, want string }{
		{"Too Many Attempts.", "{\n    \"message\": \"Too Many Attempts.\"\n}"},
		{"The route a/b could not be found.", "{\n    \"message\": \"The route a/b could not be found.\"\n}"},
		{"", "{\n    \"message\": \"\"\n}"},
		{"é \"q\"\n", "{\n    \"message\": \"\\u00e9 \\\"q\\\"\\n\"\n}"},
		{"bad \xff", "{\n    \"message\": \"Server Error\"\n}"},
	} {
		if got := string(encodeLaravelException(tc.message)); got != tc.want {
			t.Errorf("encodeLaravelException(%q) = %q, want %q", tc.message, got, tc.want)
		}
	}
}

func TestInputParsing(t *testing.T) {
	t.Parallel()
	p := parsePHPQuery("a=1&b=x+y%21&a=2&c[]=z&bad=%zz&exclude.ips=1&=skip&&d")
	if got := strings.Join(p.keys, ","); got != "a,b,c,bad,exclude_ips,d" {
		t.Errorf("keys %s", got)
	}
	if p.get("a") != "2" || p.get("b") != "x y!" || p.get("bad") != "%zz" || p.get("d") != "" || p.get("exclude_ips") != "1" {
		t.Errorf("values %v", p.vals)
	}
	if _, ok := p.get("c").(phpArray); !ok {
		t.Errorf("c = %#v", p.get("c"))
	}

	for _, tc := range []struct {
		v  any
		n  int64
		ok bool
	}{
		{"2", 2, true}, {" 2 ", 2, true}, {"+2", 2, true}, {"-0", 0, true}, {"02", 0, false}, {"2.0", 0, false},
		{"abc", 0, false}, {"", 0, false}, {int64(7), 7, true}, {2.0, 2, true}, {2.5, 0, false}, {true, 1, true},
		{false, 0, false}, {nil, 0, false}, {phpArray{}, 0, false}, {"99999999999999999999", 0, false},
	} {
		if n, ok := filterInt(tc.v); n != tc.n || ok != tc.ok {
			t.Errorf("filterInt(%#v) = %d, %v", tc.v, n, ok)
		}
	}
	for _, tc := range []struct {
		v  any
		ok bool
	}{{"1.5", true}, {" 1e3 ", true}, {".5", true}, {"1.", true}, {"abc", false}, {"1x", false}, {"0x1A", false}, {nil, false}} {
		if _, ok := phpNumeric(tc.v); ok != tc.ok {
			t.Errorf("phpNumeric(%#v) = %v", tc.v, ok)
		}
	}
}

func TestLikeMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s, p string
		want bool
	}{
		{"example.com", "%amp%", true}, {"example.com", "%xyz%", false}, {"example.com", "%e_a%", true},
		{"example.com", "%%", true}, {"a%b.com", `%\%%`, true}, {"ab.com", `%\%%`, false},
		{"abc", "a%c", true}, {"abc", "a%b", false}, {"aaa", "%a%a%a%", true}, {"aa", "%a%a%a%", false},
	} {
		if got := likeMatch([]rune(tc.s), []rune(tc.p)); got != tc.want {
			t.Errorf("likeMatch(%q, %q) = %v", tc.s, tc.p, got)
		}
	}
}

func TestExpectsJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		accept, xhr string
		want        bool
	}{
		{"application/json", "", true},
		{"text/html, application/json", "", false},
		{"text/html;q=0.5, application/json", "", true},
		{"application/problem+json", "", true},
		{"*/*", "", false},
		{"*/*", "XMLHttpRequest", true},
		{"", "XMLHttpRequest", true},
		{"text/html", "XMLHttpRequest", false},
		{"", "", false},
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		if tc.accept != "" {
			r.Header.Set("Accept", tc.accept)
		}
		if tc.xhr != "" {
			r.Header.Set("X-Requested-With", tc.xhr)
		}
		if got := expectsJSON(r); got != tc.want {
			t.Errorf("expectsJSON(%q, %q) = %v", tc.accept, tc.xhr, got)
		}
	}
}

func TestDefaultAPIKey(t *testing.T) {
	t.Parallel()
	if len(DefaultAPIKey) != 64 {
		t.Errorf("len(DefaultAPIKey) = %d", len(DefaultAPIKey))
	}
	if _, err := New(Options{Users: []User{{Key: ""}}}); err == nil {
		t.Error("empty key accepted")
	}
}
