# Totals and days of a fixed range, for a website given by its exact domain.
data "analytics_website_statistics" "january" {
  domain = "example.com"
  from   = "2025-01-01"
  to     = "2025-01-31"
}

# The last 30 days (the default window, ending today in UTC) of a website
# given by id, with its ten most viewed pages.
data "analytics_website_statistics" "recent" {
  website_id = "12"
  dimension  = "page"
}

output "january_pageviews" {
  value = data.analytics_website_statistics.january.pageviews
}

# Every day of the range is in daily, with zeros when nothing was recorded.
output "january_days_without_pageviews" {
  value = [for d in data.analytics_website_statistics.january.daily : d.date if d.pageviews == 0]
}

output "top_pages" {
  value = { for row in data.analytics_website_statistics.recent.top : row.value => row.count }
}
