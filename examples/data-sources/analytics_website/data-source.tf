# Look a website up by its id...
data "analytics_website" "by_id" {
  id = 12
}

# ...or by its exact domain, in canonical form.
data "analytics_website" "by_domain" {
  domain = "example.com"
}

output "example_privacy" {
  value = data.analytics_website.by_domain.privacy
}
