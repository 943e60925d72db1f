package export

import (
	"strings"
	"testing"
)

// fuzzSecret stands for a secret a user might type into a destination (an
// AWS secret access key holds "/" and "+"). Every window of 6 of its
// characters holds a capital, so no name a refusal may repeat (a known
// scheme, a setting's name of small letters) can match one.
const fuzzSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCY"

// FuzzExportDestination states the destination parser's properties: it
// never panics; a refusal names the attribute; it never repeats any part
// of a secret put into the user information, the query or anywhere else
// of the value; an accepted destination prints (String) to a canonical
// form that parses back to the same destination and prints the same.
func FuzzExportDestination(f *testing.F) {
	for _, s := range []string{
		"exports", "./s3:x", "/var/exports", `C:\exports`, "file:///var/exports", "file://localhost/x%20y",
		"s3://my-bucket/analytics", "s3://b12/a b/ü?region=eu-west-1&use_path_style=true",
		"s3://b12/x?endpoint=http://127.0.0.1:8333&ssetype=aws:kms&kmskeyid=alias/k",
		"s3://b12?role=arn:aws:iam::123456789012:role/r&region=eu-west-1",
		"s3:/bucket", "s3//bucket", "s3:bucket", `s3:\\bucket`, "file:/x", "S3://b", "s3 ://b", "https://x/y",
		"s3://K:@@@bucket/x", "s3://K:1234/@@@bucket", "s3://bucket/x?region=a;endpoint=@@@", "s3://b%zz/@@@",
		"s3://bucket/a../b", "s3://bucket/a%0Ab", "s3://bucket/%ff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		inputs := []string{
			raw,
			strings.ReplaceAll(raw, "@@@", fuzzSecret),
			"s3://AKIAIOSFODNN7EXAMPLE:" + fuzzSecret + raw,
			"s3://AKIAIOSFODNN7EXAMPLE:" + fuzzSecret + "@" + raw,
			raw + "?x=" + fuzzSecret,
			raw + "&endpoint=http://k:" + fuzzSecret + "@h",
		}
		for _, in := range inputs {
			d, problem := ParseDestination("destination", in)
			if problem != "" {
				if !strings.HasPrefix(problem, "destination") {
					t.Fatalf("%q: the refusal does not name the attribute: %q", in, problem)
				}
				if strings.Contains(in, fuzzSecret) {
					for i := 0; i+6 <= len(fuzzSecret); i++ {
						if w := fuzzSecret[i : i+6]; strings.Contains(problem, w) {
							t.Fatalf("%q: the refusal repeats %q of the secret: %q", in, w, problem)
						}
					}
				}
				continue
			}
			canonical := d.String()
			again, p := ParseDestination("destination", canonical)
			if p != "" {
				t.Fatalf("%q: its canonical form %q is refused: %s", in, canonical, p)
			}
			if again.folder != d.folder || again.scheme != d.scheme || again.bucket != d.bucket ||
				again.prefix != d.prefix || again.query.Encode() != d.query.Encode() {
				t.Fatalf("%q: parses to %+v, its canonical form %q to %+v", in, d, canonical, again)
			}
			if c := again.String(); c != canonical {
				t.Fatalf("%q: canonical form %q prints again as %q", in, canonical, c)
			}
		}
	})
}
