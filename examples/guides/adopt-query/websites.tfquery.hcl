# Lists every website of the account for `terraform query` (Terraform 1.14
# or later). Put it next to the configuration that holds the provider block.

list "analytics_website" "site" {
  provider = analytics

  # Terraform stops a list block after 100 results unless told otherwise;
  # raise it above the number of websites of the account.
  limit = 10000

  config {
    # Oldest first, so that the generated names (site_0, site_1, ...) follow
    # the order in which the websites were created.
    sort_by = "id"
    sort    = "asc"
  }
}
