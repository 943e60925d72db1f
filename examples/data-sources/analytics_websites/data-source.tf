# All websites whose domain contains "example", sorted by domain name.
data "analytics_websites" "example" {
  search  = "example"
  sort_by = "domain"
  sort    = "asc"
}

output "example_domains" {
  value = data.analytics_websites.example.websites[*].domain
}

# Every website, newest (highest id) first.
data "analytics_websites" "all" {
  sort_by = "id"
  sort    = "desc"
}
