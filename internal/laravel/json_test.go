package laravel

import "testing"

// IsJSON is Str::contains($type, ['/json', '+json']): any JSON media type,
// with or without parameters, and nothing else.
func TestIsJSON(t *testing.T) {
	t.Parallel()
	for ct, want := range map[string]bool{
		"application/json": true, "application/json; charset=utf-8": true, "application/ld+json": true,
		"text/json": true, "application/x-www-form-urlencoded": false, "multipart/form-data; boundary=x": false,
		"": false, "text/plain": false,
	} {
		if got := IsJSON(ct); got != want {
			t.Errorf("IsJSON(%q) = %v, want %v", ct, got, want)
		}
	}
}
