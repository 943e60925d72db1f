package php

import "testing"

// String of a float is PHP's (string) cast (precision 14), the one
// FloatString writes, as PHP 8.2 prints them (php -r 'echo (string)1e14;').
func TestString_float(t *testing.T) {
	t.Parallel()
	for f, want := range map[float64]string{
		1e14: "1.0E+14", 1.5e-7: "1.5E-7", 1e20: "1.0E+20", 123456789012345: "1.2345678901234E+14",
		2.5: "2.5", 0.1 + 0.2: "0.3", 100: "100", -0.00001: "-1.0E-5",
	} {
		if got, ok := String(f); !ok || got != want {
			t.Errorf("String(%v) = %q, %v; PHP writes %q", f, got, ok, want)
		}
	}
}

// LooseEqualsInt is PHP 8's ==: true == 2, "2.0" == 2, "2abc" != 2.
func TestLooseEqualsInt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    any
		want bool
	}{
		{true, true}, {false, false}, {nil, false}, {int64(2), true}, {2.0, true}, {"2", true}, {" 2", true},
		{"2 ", true}, {"2.0", true}, {"2e0", true}, {"2abc", false}, {"", false}, {Array{}, false}, {int64(1), false},
	} {
		if got := LooseEqualsInt(tc.v, 2); got != tc.want {
			t.Errorf("%#v == 2: %v, want %v", tc.v, got, tc.want)
		}
	}
	if !LooseEqualsInt(nil, 0) || !LooseEqualsInt(false, 0) || LooseEqualsInt("a", 0) {
		t.Error("null == 0 and false == 0 are true, \"a\" == 0 false (PHP 8)")
	}
}
