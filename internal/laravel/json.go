package laravel

import "strings"

// IsJSON reports whether a Content-Type is JSON to Laravel's
// Request::isJson(): it contains "/json" or "+json", whatever its
// parameters.
func IsJSON(contentType string) bool {
	return strings.Contains(contentType, "/json") || strings.Contains(contentType, "+json")
}
