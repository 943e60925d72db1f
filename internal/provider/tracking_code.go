package provider

import (
	"html"
	"strconv"
)

// trackingScriptID is the fixed id by which the application's script finds
// its own element.
const trackingScriptID = "ZwSg9rf6GA"

// trackingCode is the script element a website owner puts on every page of
// the site, as the application's web interface shows it, for an
// installation whose public address is publicURL (without a trailing
// slash). It is the same for every website of an installation (the script
// finds the website by the page's host name), so it depends only on the
// provider's settings (resolveTrackingCode): the address browsers reach the
// installation at, and whether the script honours Do Not Track. Nothing
// about it is sent to or read from the API.
func trackingCode(publicURL string, respectDNT bool) string {
	u := html.EscapeString(publicURL)
	return `<script data-host="` + u + `" data-dnt="` + strconv.FormatBool(respectDNT) + `" src="` + u +
		`/js/script.js" id="` + trackingScriptID + `" async defer></script>`
}

// trackingCodeDescription documents the tracking_code attribute of every
// surface that has it.
const trackingCodeDescription = "The tracking code to put on every page of the website, exactly as the analytics " +
	"web interface shows it: `<script data-host=\"…\" data-dnt=\"…\" src=\"…/js/script.js\" id=\"" + trackingScriptID +
	"\" async defer></script>`. It is the same for every website of an installation (the script finds the website " +
	"by the page's host name) and is built from the provider's `tracking_url` (default: `base_url`) and " +
	"`tracking_respect_dnt`; changing those changes it in the plan without any request to the API. Not an API field."
