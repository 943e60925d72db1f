# Every website of the account whose domain contains "shop", with the
# settings of each (include_resource).
list "analytics_website" "shops" {
  provider         = analytics
  include_resource = true

  config {
    search = "shop"
  }
}

# The first 20 password-protected websites, by domain.
list "analytics_website" "protected" {
  provider = analytics
  limit    = 20

  config {
    privacy = "password"
    sort_by = "domain"
    sort    = "asc"
  }
}
