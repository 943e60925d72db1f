package client

// The single-request calls, for the tests that watch what one request does
// (the retry policy, the server's own answers).
var (
	CreateWebsiteAttempt = (*Client).createWebsite
	UpdateWebsiteAttempt = (*Client).updateWebsite
)
