package domainrule

import "testing"

// The application lower-cases the domain with mb_strtolower (the emulator
// says so where an array domain answers 500), which since PHP 7.3 applies
// Unicode's full case mapping: U+0130 (İ) becomes "i" and U+0307 (a
// combining dot above), not a plain "i" as Go's strings.ToLower (simple
// mapping) makes it. So "İstanbul.example" is stored as "i̇stanbul.example"
// by the application, and as "istanbul.example" by the emulator; a browser
// sends the former's ASCII form (xn--istanbul-o0e.example), not the latter.
func TestCanonical_dottedCapitalIAsMbStrtolower(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"İstanbul.example": "i\u0307stanbul.example",
		"aİb.example":      "ai\u0307b.example",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q (mb_strtolower's full case mapping)", in, got, want)
		}
	}
}
