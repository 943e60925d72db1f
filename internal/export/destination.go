package export

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"gocloud.dev/blob"
	"gocloud.dev/blob/s3blob"
)

// The destination of a statistics export, in a strict grammar, so that a
// typo is refused at plan time rather than taken for a folder:
//
//	destination = url | path
//	url  = "file://" ["localhost"] "/" path   (no query, fragment or credentials)
//	     | "s3://" bucket ["/" prefix] ["?" settings]
//	path = an absolute path ("/x", "C:\x", "C:/x", "\\server\share" on Windows)
//	     | a relative path whose first element is a plain name: no ":" in it,
//	       and not followed by "//", nor by "/:" when it could be a scheme
//	       ("./name:x" for a folder whose name has a colon, "./s3/:x")
//
// Anything else is refused: another scheme, a scheme in capitals, a
// mistyped separator ("s3:/b", "s3//b", "s3:b", "s3:\\b", "file:/x",
// "s3 ://b", "s3/:/b"), a drive-relative Windows path ("C:x"), spaces at either end,
// control characters. The store's settings are the URL's query, read
// strictly (settings.go); its credentials never are part
// of it: they come from the store's own credential chain (for S3 as the AWS
// CLI reads them), so that no secret is in the configuration or the state.
//
// A refusal never repeats any part of the value: it may hold a secret (a
// mistyped s3://KEY:SECRET@bucket, whose parts a parser could take for a
// host, a port or a path). It names only the scheme when it is a known one,
// and a setting's name when it cannot be a secret.

// Destination is a parsed destination: a folder, or a bucket and a
// key prefix.
type Destination struct {
	folder string // the local folder ("" for a bucket)
	scheme string // "s3"
	bucket string
	prefix string // "" or ending in "/"
	query  url.Values
}

// url is the URL of key in the destination's bucket, without the store's
// settings (the configured destination names them).
func (d Destination) url(key string) string { return d.scheme + "://" + d.bucket + "/" + key }

// String is the destination's canonical form: the folder's path, or
// s3://bucket/prefix/ with the settings in the order of their names. It
// parses back to the same destination.
func (d Destination) String() string {
	if d.folder != "" {
		return d.folder
	}
	u := url.URL{Scheme: d.scheme, Host: d.bucket, RawQuery: d.query.Encode()}
	if d.prefix != "" {
		u.Path = "/" + d.prefix
		// An "@" before the settings is refused (it may end credentials):
		// the prefix's is written %40.
		u.RawPath = strings.ReplaceAll(u.EscapedPath(), "@", "%40")
	}
	return u.String()
}

// destinationFix is how to write a destination.
const destinationFix = "Write s3://bucket/prefix for a bucket (settings after ?, e.g. " +
	"s3://my-bucket/analytics?region=eu-west-1), or a path for a local folder (\"${path.root}/exports\", " +
	"/var/exports, C:\\exports, or file:///var/exports); a relative folder whose first name holds a colon starts " +
	"with ./."

// knownSchemes are the schemes a refusal may name: none of them can be a
// part of a secret.
var knownSchemes = []string{"abfs", "az", "azblob", "file", "ftp", "gcs", "gs", "hdfs", "http", "https", "mem",
	"minio", "r2", "s3", "s3a", "s3n", "sftp", "ssh", "swift", "wasb", "webdav"}

// ParseDestination parses a destination, or says what is wrong
// with it and how to fix it (attr names the attribute).
func ParseDestination(attr, raw string) (Destination, string) {
	switch {
	case strings.TrimSpace(raw) == "":
		return Destination{}, fmt.Sprintf("%s is empty. Set it to a folder (\"${path.root}/exports\") or to a "+
			"bucket's prefix (\"s3://my-bucket/analytics\").", attr)
	case strings.IndexFunc(raw, unicode.IsControl) >= 0:
		return Destination{}, fmt.Sprintf("%s holds a control character (a tab, a line break or another "+
			"invisible character): remove it. %s", attr, destinationFix)
	case strings.TrimSpace(raw) != raw:
		return Destination{}, fmt.Sprintf("%s starts or ends with a space: remove it. %s", attr, destinationFix)
	case strings.HasPrefix(raw, "s3://"), strings.HasPrefix(raw, "file://"):
		return parseDestinationURL(attr, raw)
	}
	if scheme, _, ok := strings.Cut(raw, "://"); ok && schemeName(scheme) {
		return Destination{}, unsupportedScheme(attr, scheme)
	}
	if isDrivePath(raw) || raw[0] == '/' || filepath.IsAbs(raw) {
		return Destination{folder: raw}, ""
	}
	first, rest := raw, ""
	if i := strings.IndexAny(raw, `/\`); i >= 0 {
		first, rest = raw[:i], raw[i:]
	}
	switch {
	case first == "":
		return Destination{}, fmt.Sprintf("%s starts with a backslash, which is no path on this system. %s",
			attr, destinationFix)
	case strings.Contains(first, ":"):
		return Destination{}, fmt.Sprintf("%s looks like a URL with a mistyped scheme separator (a name "+
			"and a colon before the first slash, as in s3:/bucket, s3:bucket or file:/path), or a Windows path "+
			"relative to a drive (C:exports): it is refused rather than taken for a relative folder. %s",
			attr, destinationFix)
	case strings.HasPrefix(rest, "//"), strings.HasPrefix(rest, `\\`):
		return Destination{}, fmt.Sprintf("%s looks like a URL whose colon is missing (s3//bucket): a "+
			"double slash after the first name is refused rather than taken for a relative folder. %s",
			attr, destinationFix)
	case schemeName(first) && (strings.HasPrefix(rest, "/:") || strings.HasPrefix(rest, `\:`)):
		return Destination{}, fmt.Sprintf("%s looks like a URL whose scheme separator is mistyped (s3/:/bucket "+
			"for s3://bucket): a name followed by a slash and a colon is refused rather than taken for a relative "+
			"folder. %s", attr, destinationFix)
	}
	return Destination{folder: raw}, ""
}

// schemeName reports whether s has the form of a URL scheme (RFC 3986),
// spaces allowed ("s3 ://").
func schemeName(s string) bool {
	if s == "" || !isASCIILetter(s[0]) {
		return false
	}
	for _, r := range s {
		if !isASCIILetter(byte(r)) && !strings.ContainsRune("0123456789+.- ", r) {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isDrivePath reports whether p starts with a Windows drive and a
// separator, as C:\exports or C:/exports.
func isDrivePath(p string) bool {
	return len(p) >= 3 && isASCIILetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

func unsupportedScheme(attr, scheme string) string {
	lower := strings.ToLower(strings.TrimSpace(scheme))
	switch {
	case (lower == "s3" || lower == "file") && scheme != lower:
		return fmt.Sprintf("%s: write the scheme in lower case and without spaces, %s://. %s", attr, lower, destinationFix)
	case slices.Contains(knownSchemes, scheme):
		return fmt.Sprintf("%s: the scheme %q is not supported. Use a folder (a path, or file:///path) or an S3 "+
			"or S3-compatible bucket (s3://bucket/prefix, with endpoint=... for a self-hosted store).", attr, scheme)
	}
	return fmt.Sprintf("%s: the scheme (the part before ://) is not supported. Use a folder (a path, or "+
		"file:///path) or an S3 or S3-compatible bucket (s3://bucket/prefix, with endpoint=... for a self-hosted "+
		"store).", attr)
}

// parseDestinationURL parses a destination that starts with s3:// or
// file://.
func parseDestinationURL(attr, raw string) (Destination, string) {
	u, err := url.Parse(raw)
	if err != nil {
		// Go's message would repeat a part of the value.
		return Destination{}, fmt.Sprintf("%s cannot be read as a URL: it holds a character that must be "+
			"percent-encoded (a space, %%, or a colon in the bucket's name), or an invalid %%-escape. The value is "+
			"not repeated here, as it could hold a secret. %s", attr, destinationFix)
	}
	if u.User != nil {
		return Destination{}, fmt.Sprintf("%s holds credentials (the part before @). Credentials never go "+
			"into the configuration, where they would be stored in the state: remove them, and give them to the "+
			"provider's process as the store's own tools read them (for S3: AWS_ACCESS_KEY_ID and "+
			"AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or a role of the machine).", attr)
	}
	if strings.Contains(raw, "#") {
		return Destination{}, fmt.Sprintf("%s has a fragment (#...), which names nothing in a destination: "+
			"remove it, or write # in a prefix as %%23.", attr)
	}
	if beforeSettings, _, _ := strings.Cut(raw, "?"); u.Scheme == "s3" && strings.Contains(beforeSettings, "@") {
		// s3://KEY/SECRET@bucket parses as the bucket KEY and the prefix
		// SECRET@bucket: nothing before the settings may hold an "@".
		return Destination{}, fmt.Sprintf("%s holds \"@\" before its settings, as credentials do "+
			"(s3://KEY:SECRET@bucket, which a \"/\" in the secret turns into a bucket and a prefix); it is not "+
			"repeated here. Credentials never go into the configuration: give them to the provider's process as the "+
			"store's own tools read them (for S3: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or a role "+
			"of the machine), and treat them as exposed if the configuration was shared. An \"@\" of the prefix is "+
			"written %%40.", attr)
	}
	if u.Scheme == "file" {
		return parseFileDestination(attr, u)
	}
	return parseS3Destination(attr, u)
}

func parseFileDestination(attr string, u *url.URL) (Destination, string) {
	switch {
	case u.Host != "" && u.Host != "localhost":
		return Destination{}, fmt.Sprintf("%s names a host: a file:// URL names a folder of this "+
			"machine, file:///path (three slashes). For a relative folder, write the path without file://.", attr)
	case u.RawQuery != "" || u.ForceQuery:
		return Destination{}, fmt.Sprintf("%s: a file:// destination takes no query parameters; remove "+
			"the part after \"?\".", attr)
	case u.Path == "" || u.Path == "/":
		return Destination{}, fmt.Sprintf("%s names no folder: write file:///path/to/exports.", attr)
	case strings.IndexFunc(u.Path, unicode.IsControl) >= 0 || strings.TrimSpace(u.Path) != u.Path:
		return Destination{}, fmt.Sprintf("%s: the folder holds an escaped control character, or starts "+
			"or ends with a space: remove it.", attr)
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && filepath.VolumeName("C:") != "" {
		p = p[1:] // file:///C:/exports on Windows
	}
	return Destination{folder: filepath.FromSlash(p)}, ""
}

// maxPrefixLen keeps every key of an export (prefix, folder name of up to
// about 290 bytes, file name) under S3's limit of 1,024 bytes.
const maxPrefixLen = 600

func parseS3Destination(attr string, u *url.URL) (Destination, string) {
	const fix = "Write s3://bucket/prefix, e.g. s3://my-bucket/analytics."
	switch {
	case u.Host == "":
		return Destination{}, fmt.Sprintf("%s names no bucket. %s", attr, fix)
	case strings.Contains(u.Host, ":"):
		return Destination{}, fmt.Sprintf("%s: the bucket's name holds a colon, as a host with a port "+
			"would. The host of an s3:// URL is the bucket's name; a self-hosted store's address goes into the "+
			"endpoint setting: s3://bucket/prefix?endpoint=http://host:port&use_path_style=true.", attr)
	case !bucketName(u.Host):
		return Destination{}, fmt.Sprintf("%s: the bucket's name is not one an S3 store accepts: 3 to 255 "+
			"letters, digits, dots, hyphens and underscores, starting with a letter or digit (a new bucket of Amazon "+
			"S3: 3 to 63 lower-case letters, digits, dots and hyphens). %s", attr, fix)
	}
	prefix := strings.TrimPrefix(u.Path, "/")
	if prefix != "" {
		if p := prefixProblem(prefix); p != "" {
			return Destination{}, fmt.Sprintf("%s: the prefix %s. %s", attr, p, fix)
		}
		prefix = strings.TrimSuffix(prefix, "/") + "/"
	}
	q, p := parseS3Settings(u.RawQuery)
	if p != "" {
		return Destination{}, attr + ": " + p
	}
	return Destination{scheme: "s3", bucket: u.Host, prefix: prefix, query: q}, ""
}

// bucketName reports whether s is a bucket name an S3 store may hold:
// Amazon's rules of today, or of older buckets (capitals, underscores,
// up to 255 characters).
func bucketName(s string) bool {
	if len(s) < 3 || len(s) > 255 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		ok := isASCIILetter(c) || c >= '0' && c <= '9' || (i > 0 && (c == '.' || c == '-' || c == '_'))
		if !ok {
			return false
		}
	}
	return true
}

// prefixProblem says what is wrong with a bucket prefix (decoded), or "".
// A prefix is refused when the store's library would write its keys under
// other names than the export deletes (gocloud.dev's s3blob escapes control
// characters and the "/" of "../", and turns invalid UTF-8 into U+FFFD).
func prefixProblem(prefix string) string {
	switch {
	case len(prefix) > maxPrefixLen:
		return fmt.Sprintf("is longer than %d bytes, which leaves no room for the export's keys under S3's limit "+
			"of 1,024", maxPrefixLen)
	case !utf8.ValidString(prefix):
		return "holds a %-escape that is not UTF-8, which the store's library would write under another key"
	case strings.IndexFunc(prefix, unicode.IsControl) >= 0:
		return "holds an escaped control character (such as %0A), which the store's library would write under " +
			"another key"
	}
	for seg := range strings.SplitSeq(strings.TrimSuffix(prefix, "/"), "/") {
		switch {
		case seg == "" || seg == "." || seg == "..":
			return "has an empty, \".\" or \"..\" part, which object stores keep as written rather than resolve"
		case strings.HasSuffix(seg, ".."):
			return "has a part ending in \"..\", whose following slash the store's library would write escaped, " +
				"under another key"
		}
	}
	return ""
}

// openBucket opens the destination's bucket. It sends nothing: the first
// request is the caller's.
func (d Destination) openBucket(ctx context.Context) (*blob.Bucket, error) {
	u := &url.URL{Scheme: d.scheme, Host: d.bucket, RawQuery: d.query.Encode()}
	return (&s3blob.URLOpener{}).OpenBucketURL(ctx, u)
}

// Open opens where an export to d goes: a folder (nothing is done until
// the export begins), or a bucket, opened and listed, so that missing or
// refused credentials and a missing bucket are found before anything else.
func Open(ctx context.Context, d Destination) (Store, error) {
	if d.folder != "" {
		return NewFolderStore(d.folder), nil
	}
	s, err := openBucketStore(ctx, d)
	if err != nil {
		return nil, err // not a nil *bucketStore in a Store
	}
	return s, nil
}
