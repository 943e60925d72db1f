package export

import (
	"net/url"
	"strings"
	"testing"
)

// Every destination form parses to its folder or bucket and prefix, and
// every wrong one is refused with what to write instead, never repeating a
// credential.
func TestParseExportDestination(t *testing.T) {
	t.Parallel()
	ok := []struct {
		in                     string
		folder, bucket, prefix string
		query                  string
	}{
		{in: "exports", folder: "exports"},
		{in: "./exports", folder: "./exports"},
		{in: "../exports/x", folder: "../exports/x"},
		{in: "./s3:bucket", folder: "./s3:bucket"},
		{in: "exports/2024:05", folder: "exports/2024:05"},
		{in: "/var/exports", folder: "/var/exports"},
		{in: "/s3:/x", folder: "/s3:/x"},
		{in: "C:\\exports", folder: "C:\\exports"},
		{in: "C:/exports", folder: "C:/exports"},
		{in: "file:///var/exports", folder: "/var/exports"},
		{in: "file://localhost/var/ex%20ports", folder: "/var/ex ports"},
		{in: "s3://my-bucket", bucket: "my-bucket"},
		{in: "s3://my-bucket/", bucket: "my-bucket"},
		{in: "s3://my-bucket/analytics", bucket: "my-bucket", prefix: "analytics/"},
		{in: "s3://my-bucket/a/b/", bucket: "my-bucket", prefix: "a/b/"},
		{in: "s3://my-bucket/a b/ü~%40:x", bucket: "my-bucket", prefix: "a b/ü~@:x/"},
		{in: "s3://Old_Bucket/x", bucket: "Old_Bucket", prefix: "x/"},
		{in: "s3://backups/analytics?endpoint=http://127.0.0.1:8333&region=us-east-1&use_path_style=true",
			bucket: "backups", prefix: "analytics/", query: "endpoint=http%3A%2F%2F127.0.0.1%3A8333&region=us-east-1&use_path_style=true"},
		{in: "s3://b12?s3ForcePathStyle=1&profile=ci", bucket: "b12", query: "profile=ci&s3ForcePathStyle=1"},
		{in: "s3://b12?ssetype=aws:kms&kmskeyid=alias/exports", bucket: "b12", query: "kmskeyid=alias%2Fexports&ssetype=aws%3Akms"},
		{in: "s3://b12?ssetype=aes256&request_checksum_calculation=WHEN_REQUIRED&response_checksum_validation=when_supported",
			bucket: "b12", query: "request_checksum_calculation=WHEN_REQUIRED&response_checksum_validation=when_supported&ssetype=aes256"},
		{in: "s3://b12?role=arn:aws:iam::123456789012:role/exporter&region=eu-west-1&endpoint=https://s3.example.com",
			bucket: "b12", query: "endpoint=https%3A%2F%2Fs3.example.com&region=eu-west-1&role=arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fexporter"},
		{in: "s3://b12?region=garage&dualstack=false&fips=0&accelerate=false&disable_https=true&hostname_immutable=true",
			bucket: "b12", query: "accelerate=false&disable_https=true&dualstack=false&fips=0&hostname_immutable=true&region=garage"},
	}
	for _, tc := range ok {
		d, p := ParseDestination("destination", tc.in)
		if p != "" || d.folder != tc.folder || d.bucket != tc.bucket || d.prefix != tc.prefix || d.query.Encode() != tc.query {
			t.Errorf("%q: %+v, %q", tc.in, d, p)
		}
	}
	const secret = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY"
	bad := []struct{ in, want string }{
		{"", "is empty"},
		{"  ", "is empty"},
		{" exports", "starts or ends with a space"},
		{"exports\n", "control character"},
		{"s3://AKIAEXAMPLE:" + secret + "@bucket/x", "holds credentials"},
		{"s3://bucket/x?aws_secret_access_key=" + secret, `the query parameter "aws_secret_access_key" is not one`},
		{"s3://bucket/x?secret=" + secret + "&region=x", `the query parameter "secret"`},
		{"s3://bucket/x?" + secret + "=1", "a query parameter is not one"},
		{"s3://bucket/x?Region=eu-west-1", `other capitals than "region"`},
		{"s3://bucket/x?use_path_style=" + secret, `"use_path_style" must be true or false`},
		{"s3://bucket/x?endpoint=" + secret, `"endpoint" must be the store's base URL`},
		{"s3://bucket/x?endpoint=http://k:" + secret + "@host", `"endpoint" must be`},
		{"s3://bucket/x?endpoint=http://host?x=" + secret, `"endpoint" must be`},
		{"s3://bucket/x?region=a&region=b", `"region" is given 2 times`},
		{"s3://bucket/x?region=", `"region" has no value`},
		{"s3://bucket/x?region=" + secret + "_", `"region" must be a region's name`},
		{"s3://bucket/x?ssetype=" + secret, `"ssetype" must be one of AES256, aws:kms, aws:kms:dsse`},
		{"s3://bucket/x?ssetype=aws:fsx", `"ssetype" must be one of`},
		{"s3://bucket/x?kmskeyid=k1", "kmskeyid needs ssetype=aws:kms"},
		{"s3://bucket/x?ssetype=aws:kms&kmskeyid=a%20b", `"kmskeyid" must be a KMS key's id`},
		{"s3://bucket/x?request_checksum_calculation=" + secret, `"request_checksum_calculation" must be when_supported or when_required`},
		{"s3://bucket/x?response_checksum_validation=always", `"response_checksum_validation" must be`},
		{"s3://bucket/x?role=" + secret, `"role" must be the ARN of an IAM role`},
		{"s3://bucket/x?role=arn:aws:s3:::bucket", `"role" must be the ARN of an IAM role`},
		{"s3://bucket/x?role=arn:aws:iam::123456789012:role/r&region=x&fips=true&request_checksum_calculation=when_required",
			"role cannot be combined with fips, request_checksum_calculation"},
		{"s3://bucket/x?profile=a%20b", `"profile" must be a profile's name`},
		{"s3://bucket/x?use_path_style=true&s3ForcePathStyle=true", "the same setting"},
		{"s3://bucket/x?region=eu-west-1;endpoint=http://127.0.0.1:9000", "cannot be read"},
		{"s3://bucket/x?region=eu-west-1&endpoint=http://h%zz", "cannot be read"},
		{"s3:///x", "names no bucket"},
		{"s3://bucket:9000/x", "holds a colon"},
		{"s3://AKIAEXAMPLE:12345/" + secret + "@bucket", `holds "@" before its settings`},
		{"s3://b/x", "not one an S3 store accepts"},
		{"s3://-bucket/x", "not one an S3 store accepts"},
		{"s3://bucket/a//b", `an empty, "." or ".." part`},
		{"s3://bucket/a/../b", `an empty, "." or ".." part`},
		{"s3://bucket/a../b", `ending in ".."`},
		{"s3://bucket/a%0Ab", "control character"},
		{"s3://bucket/a%FFb", "not UTF-8"},
		{"s3://bucket/" + strings.Repeat("a", 601), "longer than 600 bytes"},
		{"s3://bucket/x#frag", "has a fragment"},
		{"s3://bucket/x#", "has a fragment"},
		{"gs://bucket/x", `the scheme "gs" is not supported`},
		{"https://bucket.s3.amazonaws.com/x", `the scheme "https" is not supported`},
		{"S3://bucket/x", "write the scheme in lower case and without spaces, s3://"},
		{"s3 ://bucket/x", "write the scheme in lower case and without spaces, s3://"},
		{"File:///x", "file://"},
		{secret + "://bucket/x", "the scheme (the part before ://) is not supported"},
		{"s3:/bucket/x", "mistyped scheme separator"},
		{"s3:bucket/x", "mistyped scheme separator"},
		{`s3:\\bucket\x`, "mistyped scheme separator"},
		{"s3:", "mistyped scheme separator"},
		{"file:/var/exports", "mistyped scheme separator"},
		{"file:var/exports", "mistyped scheme separator"},
		{"C:exports", "relative to a drive"},
		{"s3//bucket/x", "colon is missing"},
		{`s3\\bucket\x`, "colon is missing"},
		{"https//example.com", "colon is missing"},
		{`\exports`, "starts with a backslash"},
		{"file://server/share", "names a host"},
		{"file:///", "names no folder"},
		{"file:///x?y=z", "takes no query parameters"},
		{"file:///x%0A", "control character"},
		{"s3://b%zz/" + secret, "cannot be read as a URL"},
		{"s3://AKIAEXAMPLE:" + secret + "/x@bucket", "cannot be read as a URL"},
	}
	for _, tc := range bad {
		_, p := ParseDestination("destination", tc.in)
		if !strings.Contains(p, tc.want) || !strings.HasPrefix(p, "destination") {
			t.Errorf("%q: problem %q, want it to name the attribute and say %q", tc.in, p, tc.want)
		}
		for piece := range strings.SplitSeq(secret, "-") {
			if strings.Contains(p, piece) {
				t.Errorf("%q: the problem repeats a part of the secret: %q", tc.in, p)
			}
		}
	}
}

// A relative path that reads as a URL whose "://" came out as "/:/" is
// refused, as "s3:/" and "s3//" are, rather than taken for a folder; the
// fix ("./" first) is said.
func TestParseExportDestination_swappedSeparator(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"s3/:/x", "s3/:/bucket/prefix", "file/:/var/x", `s3\:\bucket`, "s3/:"} {
		d, p := ParseDestination("destination", in)
		if p == "" {
			t.Errorf("%q is taken for the folder %q", in, d.folder)
			continue
		}
		if !strings.HasPrefix(p, "destination") || !strings.Contains(p, "./") {
			t.Errorf("%q: %q does not name the attribute, or not say how to write such a folder", in, p)
		}
	}
	for _, in := range []string{"./s3/:/x", "exports/2024:05", "exports/a:b"} {
		if d, p := ParseDestination("destination", in); p != "" || d.folder != in {
			t.Errorf("%q: folder %q, problem %q, want the folder", in, d.folder, p)
		}
	}
}

// A setting whose value holds a control character once decoded (%00, %0A)
// is refused, naming the setting and not the value.
func TestParseExportDestination_settingControlCharacters(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"profile=a%00b", "profile=a%0Ab", "kmskeyid=key%01x", "profile=%7F"} {
		in := "s3://bucket/x?" + q
		_, p := ParseDestination("destination", in)
		name, _, _ := strings.Cut(q, "=")
		if !strings.Contains(p, "control character") || !strings.Contains(p, `"`+name+`"`) ||
			!strings.HasPrefix(p, "destination") {
			t.Errorf("%q: problem %q, want a refusal naming the attribute, the setting and the control character", in, p)
		}
	}
}

// An s3:// destination with "@" before its settings may hold credentials
// whose secret holds a "/" (s3://KEY/SECRET@bucket parses as the bucket KEY
// and the prefix SECRET@bucket): it is refused without repeating it, and a
// prefix with an "@" is written %40 (which the canonical form keeps). The
// endpoint setting is refused the same way when it may hide credentials.
func TestParseExportDestination_hiddenCredentials(t *testing.T) {
	t.Parallel()
	const pw = "Sec-ret-77"
	for _, in := range []string{
		"s3://AKIAKEY/" + pw + "@bucket/prefix",
		"s3://AKIAKEY/" + pw + "@bucket",
		"s3://my-bucket/x@y/z",
		"s3://bucket/x?endpoint=http://admin:2024/" + pw + "@s3.example.com",
		"s3://bucket/x?endpoint=" + url.QueryEscape("http://admin:2024/"+pw+"@s3.example.com"),
		"s3://bucket/x?endpoint=" + url.QueryEscape("http://admin/"+pw+"@127.0.0.1:8333"),
	} {
		d, p := ParseDestination("destination", in)
		if p == "" {
			t.Errorf("%q is accepted: %s", in, d)
			continue
		}
		if strings.Contains(p, pw) || strings.Contains(p, "AKIAKEY") || strings.Contains(p, "2024") ||
			!strings.HasPrefix(p, "destination") {
			t.Errorf("%q: the refusal repeats a part of the value, or does not name the attribute: %s", in, p)
		}
	}
	d, p := ParseDestination("destination", "s3://my-bucket/team%40corp/x")
	if p != "" || d.prefix != "team@corp/x/" {
		t.Fatalf("a prefix with %%40: %q, %q", d.prefix, p)
	}
	if again, p := ParseDestination("destination", d.String()); p != "" || again.prefix != d.prefix {
		t.Errorf("the canonical form %q parses as %q, %q", d.String(), again.prefix, p)
	}
}
