resource "analytics_website" "shop" {
  domain = "shop.example.com"
}

# Warns at every plan and apply while shop.example.com records no pageview
# (yesterday or today, UTC): until its pages carry the tracking code, or
# when the code breaks.
check "shop_tracked" {
  data "analytics_website_statistics" "shop_recent" {
    website_id = analytics_website.shop.id
    days       = 2
  }

  assert {
    condition     = data.analytics_website_statistics.shop_recent.pageviews > 0
    error_message = "${analytics_website.shop.domain} recorded no pageview since ${data.analytics_website_statistics.shop_recent.from}: check that its pages carry the tracking code (tracking_code)."
  }
}
