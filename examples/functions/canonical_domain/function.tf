# Terraform 1.8 or later, OpenTofu 1.7 or later. Provider functions need the
# provider in required_providers.
terraform {
  required_providers {
    analytics = {
      source = "analytics-tf/analytics"
    }
  }
}

locals {
  # URLs from another source, e.g. a list of sites in another system.
  site_urls = ["https://www.Example.com/", "http://shop.example.com/cart?x=1", "blog.example.com"]
}

# "example.com", "shop.example.com" and "blog.example.com": the form the
# server stores, which `domain` requires.
resource "analytics_website" "site" {
  for_each = toset([for u in local.site_urls : provider::analytics::canonical_domain(u)])
  domain   = each.key
}

output "canonical" {
  value = provider::analytics::canonical_domain("https://user@www.Example.com:8443/blog/") # "example.com"
}
