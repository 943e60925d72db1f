package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
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
		{in: "/var/exports", folder: "/var/exports"},
		{in: "C:\\exports", folder: "C:\\exports"},
		{in: "file:///var/exports", folder: "/var/exports"},
		{in: "file://localhost/var/ex%20ports", folder: "/var/ex ports"},
		{in: "s3://my-bucket", bucket: "my-bucket"},
		{in: "s3://my-bucket/", bucket: "my-bucket"},
		{in: "s3://my-bucket/analytics", bucket: "my-bucket", prefix: "analytics/"},
		{in: "s3://my-bucket/a/b/", bucket: "my-bucket", prefix: "a/b/"},
		{in: "s3://backups/analytics?endpoint=http://127.0.0.1:8333&region=us-east-1&use_path_style=true",
			bucket: "backups", prefix: "analytics/", query: "endpoint=http%3A%2F%2F127.0.0.1%3A8333&region=us-east-1&use_path_style=true"},
		{in: "s3://b?s3ForcePathStyle=1&profile=ci", bucket: "b", query: "profile=ci&s3ForcePathStyle=1"},
	}
	for _, tc := range ok {
		d, p := parseExportDestination(path.Root("destination"), tc.in)
		if p != "" || d.folder != tc.folder || d.bucket != tc.bucket || d.prefix != tc.prefix || d.query.Encode() != tc.query {
			t.Errorf("%q: %+v, %q", tc.in, d, p)
		}
	}
	const secret = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY"
	bad := []struct{ in, want string }{
		{"", "is empty"},
		{"  ", "is empty"},
		{"s3://AKIAEXAMPLE:" + secret + "@bucket/x", "holds credentials"},
		{"s3://bucket/x?aws_secret_access_key=" + secret, `the query parameter "aws_secret_access_key" is not one`},
		{"s3://bucket/x?secret=" + secret + "&region=x", `the query parameter "secret"`},
		{"s3://bucket/x?use_path_style=" + secret, `"use_path_style" must be true or false`},
		{"s3://bucket/x?endpoint=" + secret, "the endpoint parameter must be the store's base URL"},
		{"s3://bucket/x?endpoint=http://k:" + secret + "@host", "the endpoint parameter must be"},
		{"s3://bucket/x?region=a&region=b", `"region" is given 2 times`},
		{"s3:///x", "names no bucket"},
		{"s3://bucket:9000/x", "has a port"},
		{"s3://bucket/a//b", `an empty, "." or ".." part`},
		{"s3://bucket/a/../b", `an empty, "." or ".." part`},
		{"s3://bucket/x#frag", "has a fragment"},
		{"gs://bucket/x", `the scheme "gs" is not supported`},
		{"https://bucket.s3.amazonaws.com/x", `the scheme "https" is not supported`},
		{"file://server/share", `names the host "server"`},
		{"file:///", "names no folder"},
		{"file:///x?y=z", "takes no query parameters"},
		{"s3://b%zz/" + secret, "is not a URL"},
	}
	for _, tc := range bad {
		_, p := parseExportDestination(path.Root("destination"), tc.in)
		if !strings.Contains(p, tc.want) || !strings.HasPrefix(p, "destination") {
			t.Errorf("%q: problem %q, want it to name the attribute and say %q", tc.in, p, tc.want)
		}
		if strings.Contains(p, secret) {
			t.Errorf("%q: the problem repeats the secret: %q", tc.in, p)
		}
	}
}
