# Terraform 1.5 and later can import with an import block, by domain or by
# numeric id (as a string, e.g. "12").
import {
  to = analytics_website.example
  id = "example.com"
}

resource "analytics_website" "example" {
  domain = "example.com"
}
