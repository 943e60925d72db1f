//go:build unix

package pluginruntime

import (
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// TestCopyScrubbed_cutAtLineEnd: a line of standard error that ends with a
// secret cut short (a library's message cut at a length, a password with a
// line break in it, whose first line ends with its start) is scrubbed as
// the redactor scrubs a text that ends with it: the line's break is not
// part of the text the redactor sees. Before, the redactor saw the "\n"
// after the cut, which is no place where it takes a prefix for a cut
// secret, and the line left as it came.
func TestCopyScrubbed_cutAtLineEnd(t *testing.T) {
	t.Parallel()
	const secret = "Kq7Wm3Kd9Lp2-line-break-secret"
	set := redact.New()
	set.Add(secret)
	var out strings.Builder
	copyScrubbed(&out, strings.NewReader("body starts with "+secret[:12]+"\nsecond line\r\nthird "+secret[:10]+"\r\nlast "+secret[:9]),
		set.String)
	want := "body starts with [REDACTED]\nsecond line\r\nthird [REDACTED]\r\nlast [REDACTED]"
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}
