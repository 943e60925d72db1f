variable "domains" {
  type    = set(string)
  default = ["shop.example.com", "blog.example.com"]
}

resource "analytics_website" "site" {
  for_each = var.domains
  domain   = each.value
}

# Two requests per website and plan (pageviews and visitors of two days).
data "analytics_website_statistics" "recent" {
  for_each   = analytics_website.site
  website_id = each.value.id
  days       = 2
}

check "all_tracked" {
  assert {
    condition = alltrue([for s in data.analytics_website_statistics.recent : s.pageviews > 0])
    error_message = "No pageview recorded yesterday or today (UTC) for: ${join(", ", sort([
      for domain, s in data.analytics_website_statistics.recent : domain if s.pageviews == 0
    ]))}."
  }
}
