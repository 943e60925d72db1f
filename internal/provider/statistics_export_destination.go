package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"gocloud.dev/blob"
	"gocloud.dev/blob/s3blob"
)

// The destination of a statistics export: a URL naming a local folder (a
// path, or file:///path) or a prefix of an object store's bucket
// (s3://bucket/prefix, for Amazon S3 and every S3-compatible store). The
// store's settings are the URL's query parameters, as gocloud.dev/blob
// reads them; its credentials never are: they come from the store's own
// credential chain (for S3 as the AWS CLI reads it: environment, shared
// config and credentials files, web identity, container or instance role),
// so that no secret is in the configuration or the state.

// s3DestinationParams are the query parameters an s3:// destination
// accepts (those of gocloud.dev/blob/s3blob v0.47.0 that set where and how
// to reach the store), each with whether its value is a boolean.
var s3DestinationParams = map[string]bool{
	"endpoint":                     false, // a self-hosted store's URL, e.g. http://127.0.0.1:8333
	"region":                       false,
	"use_path_style":               true, // http://host/bucket/key instead of http://bucket.host/key
	"s3ForcePathStyle":             true, // the same, as older tools spell it
	"disable_https":                true,
	"hostname_immutable":           true,
	"profile":                      false, // a profile of the shared config files
	"role":                         false, // the ARN of a role to assume with the credentials found
	"dualstack":                    true,
	"fips":                         true,
	"accelerate":                   true,
	"ssetype":                      false,
	"kmskeyid":                     false,
	"request_checksum_calculation": false, // when_supported or when_required
	"response_checksum_validation": false,
}

// exportDestination is a parsed destination: a folder, or a bucket and a
// key prefix.
type exportDestination struct {
	folder string // the local folder ("" for a bucket)
	scheme string // "s3"
	bucket string
	prefix string // "" or ending in "/"
	query  url.Values
}

// url is the URL of key in the destination's bucket, without the store's
// settings (the configured destination names them).
func (d exportDestination) url(key string) string { return d.scheme + "://" + d.bucket + "/" + key }

// parseExportDestination parses a destination, or says what is wrong
// with it and how to fix it (attr names the attribute). The problem never
// repeats the URL's user information or query values.
func parseExportDestination(attr path.Path, raw string) (exportDestination, string) {
	if strings.TrimSpace(raw) == "" {
		return exportDestination{}, fmt.Sprintf("%s is empty. Set it to a folder (\"${path.root}/exports\") or to a "+
			"bucket's prefix (\"s3://my-bucket/analytics\").", attr)
	}
	if !strings.Contains(raw, "://") {
		return exportDestination{folder: raw}, ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error // its message would repeat the URL, credentials and all
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return exportDestination{}, fmt.Sprintf("%s is not a URL (%s). Use a folder path, file:///path, or "+
			"s3://bucket/prefix.", attr, err)
	}
	if u.User != nil {
		return exportDestination{}, fmt.Sprintf("%s holds credentials (the part before @). Credentials never go "+
			"into the configuration, where they would be stored in the state: remove them, and give them to the "+
			"provider's process as the store's own tools read them (for S3: AWS_ACCESS_KEY_ID and "+
			"AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or a role of the machine).", attr)
	}
	if u.Fragment != "" {
		return exportDestination{}, fmt.Sprintf("%s has a fragment (#...), which names nothing in a destination: "+
			"remove it.", attr)
	}
	switch u.Scheme {
	case "file":
		return parseFileDestination(attr, u)
	case "s3":
		return parseS3Destination(attr, u)
	}
	return exportDestination{}, fmt.Sprintf("%s: the scheme %q is not supported. Use a folder (a path, or "+
		"file:///path) or an S3 or S3-compatible bucket (s3://bucket/prefix, with endpoint=... for a self-hosted "+
		"store).", attr, u.Scheme)
}

func parseFileDestination(attr path.Path, u *url.URL) (exportDestination, string) {
	switch {
	case u.Host != "" && u.Host != "localhost":
		return exportDestination{}, fmt.Sprintf("%s names the host %q: a file:// URL names a folder of this "+
			"machine, file:///path (three slashes). For a relative folder, write the path without file://.", attr, u.Host)
	case u.RawQuery != "":
		return exportDestination{}, fmt.Sprintf("%s: a file:// destination takes no query parameters; remove "+
			"the part after \"?\".", attr)
	case u.Path == "" || u.Path == "/":
		return exportDestination{}, fmt.Sprintf("%s names no folder: write file:///path/to/exports.", attr)
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && filepath.VolumeName("C:") != "" {
		p = p[1:] // file:///C:/exports on Windows
	}
	return exportDestination{folder: filepath.FromSlash(p)}, ""
}

func parseS3Destination(attr path.Path, u *url.URL) (exportDestination, string) {
	const fix = "Write s3://bucket/prefix, e.g. s3://my-bucket/analytics."
	if u.Host == "" {
		return exportDestination{}, fmt.Sprintf("%s names no bucket. %s", attr, fix)
	}
	if u.Port() != "" || strings.Contains(u.Host, ":") {
		return exportDestination{}, fmt.Sprintf("%s: the bucket %q has a port. The host of an s3:// URL is the "+
			"bucket's name; a self-hosted store's address goes into the endpoint parameter: "+
			"s3://bucket/prefix?endpoint=http://host:port&use_path_style=true.", attr, u.Host)
	}
	prefix := strings.TrimPrefix(u.Path, "/")
	if prefix != "" {
		for seg := range strings.SplitSeq(strings.TrimSuffix(prefix, "/"), "/") {
			if seg == "" || seg == "." || seg == ".." {
				return exportDestination{}, fmt.Sprintf("%s: the prefix %q has an empty, \".\" or \"..\" part, "+
					"which object stores keep as written rather than resolve. %s", attr, prefix, fix)
			}
		}
		prefix = strings.TrimSuffix(prefix, "/") + "/"
	}
	q := u.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		isBool, known := s3DestinationParams[k]
		if !known {
			names := make([]string, 0, len(s3DestinationParams))
			for n := range s3DestinationParams {
				names = append(names, n)
			}
			slices.Sort(names)
			return exportDestination{}, fmt.Sprintf("%s: the query parameter %q is not one an s3:// destination "+
				"takes (%s). Credentials are never parameters: the provider reads them as the AWS CLI does.",
				attr, k, strings.Join(names, ", "))
		}
		if len(q[k]) != 1 {
			return exportDestination{}, fmt.Sprintf("%s: the query parameter %q is given %d times; give it once.", attr, k, len(q[k]))
		}
		if _, err := strconv.ParseBool(q.Get(k)); isBool && err != nil {
			return exportDestination{}, fmt.Sprintf("%s: the query parameter %q must be true or false.", attr, k)
		}
	}
	if e := q.Get("endpoint"); e != "" {
		eu, err := url.Parse(e)
		if err != nil || (eu.Scheme != "http" && eu.Scheme != "https") || eu.Host == "" || eu.User != nil {
			return exportDestination{}, fmt.Sprintf("%s: the endpoint parameter must be the store's base URL, "+
				"http://host:port or https://host (without credentials), e.g. "+
				"s3://bucket/prefix?endpoint=https://s3.example.com&region=us-east-1&use_path_style=true.", attr)
		}
	}
	return exportDestination{scheme: "s3", bucket: u.Host, prefix: prefix, query: q}, ""
}

// openBucket opens the destination's bucket. It sends nothing: the first
// request is the caller's.
func (d exportDestination) openBucket(ctx context.Context) (*blob.Bucket, error) {
	u := &url.URL{Scheme: d.scheme, Host: d.bucket, RawQuery: d.query.Encode()}
	return (&s3blob.URLOpener{}).OpenBucketURL(ctx, u)
}

// errInvalidDestination is returned for a destination that could not be
// checked at plan time (unknown then) and is not one.
var errInvalidDestination = errors.New("invalid destination")

// openExportStore opens where the export of cfg goes: a folder (nothing is
// done until the export begins), or a bucket, opened and listed.
func openExportStore(ctx context.Context, cfg statisticsExportModel) (exportTarget, exportStore, func(), error) {
	none := func() {}
	if !cfg.Directory.IsNull() {
		t := exportTarget{attr: "directory", value: cfg.Directory.ValueString()}
		return t, newFolderStore(t.value), none, nil
	}
	t := exportTarget{attr: "destination", value: cfg.Destination.ValueString()}
	d, problem := parseExportDestination(path.Root(t.attr), t.value)
	switch {
	case problem != "":
		return t, nil, none, fmt.Errorf("%w: %s", errInvalidDestination, problem)
	case d.folder != "":
		return t, newFolderStore(d.folder), none, nil
	}
	s, err := openBucketStore(ctx, d)
	if err != nil {
		return t, nil, none, err
	}
	return t, s, func() { _ = s.close() }, nil
}

// exportDestinationValidator refuses, at plan time, a destination that
// names no folder or bucket the export could write to.
func exportDestinationValidator() validator.String {
	return stringCheck{
		description: "must be a folder, a file:// URL or an s3://bucket/prefix URL",
		summary:     "Invalid Export Destination",
		problem: func(attr path.Path, v string) string {
			_, p := parseExportDestination(attr, v)
			return p
		},
	}
}
