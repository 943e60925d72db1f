package export

import (
	"strings"
	"testing"

	"github.com/analytics-tf/terraform-provider-analytics/internal/leakcheck"
)

// fuzzSecret is the seed of the secret the fuzzer draws, one a user might
// type into a destination (an AWS secret access key holds "/" and "+"); the
// corpora written before the secret was drawn hold it.
const fuzzSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCY"

// FuzzExportDestination states the destination parser's properties: it
// never panics; a refusal names the attribute; a refusal holds no piece,
// in any form (leakcheck), of a secret the fuzzer draws and that is put
// into the user information, the query or anywhere else of the value; an
// accepted destination prints (String) to a canonical form that parses
// back to the same destination and prints the same, and, for a bucket,
// holds no piece of a secret put into user information or a query.
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
		f.Add(s, fuzzSecret)
	}
	f.Add("s3://bucket/x", `k/+="\<&?# y`)
	f.Add("exports@@@", `k/+="\<&?# y`)
	f.Fuzz(func(t *testing.T, raw, secret string) {
		// A secret that leakcheck sets aside (too short or too common to be
		// told from other text, or sharing a piece with the rest of the
		// value, which a refusal may quote) is not checked; the other
		// properties are.
		checked := leakcheck.Skip(secret, raw, "AKIAIOSFODNN7EXAMPLE", "endpoint=http://k:", "destination") == ""
		inputs := []string{
			raw,
			strings.ReplaceAll(raw, "@@@", secret),
			"s3://AKIAIOSFODNN7EXAMPLE:" + secret + raw,
			"s3://AKIAIOSFODNN7EXAMPLE:" + secret + "@" + raw,
			raw + "?x=" + secret,
			raw + "&endpoint=http://k:" + secret + "@h",
		}
		for i, in := range inputs {
			d, problem := ParseDestination("destination", in)
			if problem != "" {
				if !strings.HasPrefix(problem, "destination") {
					t.Fatalf("%q: the refusal does not name the attribute: %q", in, problem)
				}
				if p := leakcheck.Find(problem, secret); checked && i > 0 && p != "" {
					t.Fatalf("%q: the refusal holds %s of the secret: %q", in, p, problem)
				}
				continue
			}
			canonical := d.String()
			// In a bucket's user information or query (a local folder's name
			// is the user's to choose, whatever it holds).
			if p := leakcheck.Find(canonical, secret); checked && i >= 3 && d.scheme == "s3" && p != "" {
				t.Errorf("%q: accepted, and its canonical form (which messages quote) holds %s of the secret: %q", in, p, canonical)
			}
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
