# Warn at every plan and apply when the website recorded no pageview
# yesterday or today (UTC): its pages lack the tracking code, or it broke.
check "example_com_tracked" {
  data "analytics_website_statistics" "example_com_recent" {
    domain = "example.com"
    days   = 2
  }

  assert {
    condition     = data.analytics_website_statistics.example_com_recent.pageviews > 0
    error_message = "example.com recorded no pageview since ${data.analytics_website_statistics.example_com_recent.from}: check that its pages carry the tracking code."
  }
}
