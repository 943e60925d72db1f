# One year of a website found by its domain, with a longer time limit.
action "analytics_website_statistics_export" "year_2024" {
  config {
    domain    = "archive.example.com"
    directory = "/srv/analytics-archive"
    from      = "2024-01-01"
    to        = "2024-12-31"
    timeout   = "1h"
  }
}
