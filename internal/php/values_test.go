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
