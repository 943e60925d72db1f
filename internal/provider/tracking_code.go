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
// slash) and whose script is at scriptURL ("": publicURL + /js/script.js,
// else the address of the installation's CDN setting, while data-host stays
// publicURL). It is the same for every website of an installation (the
// script finds the website by the page's host name), so it depends only on
// the provider's settings (resolveTrackingCode): the addresses browsers
// reach, and whether the script honours Do Not Track. Nothing about it is
// sent to or read from the API.
func trackingCode(publicURL, scriptURL string, respectDNT bool) string {
	if scriptURL == "" {
		scriptURL = publicURL + "/js/script.js"
	}
	return `<script data-host="` + html.EscapeString(publicURL) + `" data-dnt="` + strconv.FormatBool(respectDNT) +
		`" src="` + html.EscapeString(scriptURL) + `" id="` + trackingScriptID + `" async defer></script>`
}

// trackingCodeDescription documents the tracking_code attribute of every
// surface that has it.
const trackingCodeDescription = "The tracking code to put on every page of the website, exactly as the analytics " +
	"web interface shows it: `<script data-host=\"…\" data-dnt=\"…\" src=\"…/js/script.js\" id=\"" + trackingScriptID +
	"\" async defer></script>`. It is the same for every website of an installation (the script finds the website " +
	"by the page's host name) and is built from the provider's `tracking_url` (default: `base_url`), " +
	"`tracking_script_url` (the script's `src`, default: `tracking_url` followed by `/js/script.js`) and " +
	"`tracking_respect_dnt`; changing those changes it in the plan without any request to the API. Not an API field."
