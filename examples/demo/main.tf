# The configuration `make demo` applies against the local emulator.
# The provider reads ANALYTICS_BASE_URL and ANALYTICS_API_KEY from the
# environment, as a pipeline would.

terraform {
  required_providers {
    analytics = {
      source  = "analytics-tf/analytics"
      version = ">= 0.1.0"
    }
  }
}

provider "analytics" {}

variable "stats_password" {
  description = "Password of the shop's statistics page."
  type        = string
  sensitive   = true
  default     = "demo-password-change-me"
}

# A public statistics page with the defaults.
resource "analytics_website" "blog" {
  domain = "blog.example.com"
}

# A password-protected statistics page with weekly e-mail reports.
resource "analytics_website" "shop" {
  domain        = "shop.example.com"
  privacy       = "password"
  password      = var.stats_password
  email_reports = true
}

# Several internal tools, private, with the office and VPN excluded.
resource "analytics_website" "internal" {
  for_each = toset(["wiki", "status", "docs"])

  domain         = "${each.key}.internal.example.com"
  privacy        = "private"
  exclude_bots   = true
  exclude_ips    = ["203.0.113.0/24", "2001:db8::/32"]
  exclude_params = ["utm_source", "utm_medium", "utm_campaign"]
}

# Everything the API key's user tracks under example.com, read back.
data "analytics_websites" "all" {
  search  = "example.com"
  sort_by = "domain"
  sort    = "asc"

  depends_on = [analytics_website.blog, analytics_website.shop, analytics_website.internal]
}

output "website_ids" {
  description = "The server's id of every managed website."
  value = merge(
    { (analytics_website.blog.domain) = analytics_website.blog.id },
    { (analytics_website.shop.domain) = analytics_website.shop.id },
    { for k, w in analytics_website.internal : w.domain => w.id },
  )
}

output "tracked_domains" {
  description = "Domains listed by the analytics_websites data source."
  value       = [for w in data.analytics_websites.all.websites : "${w.domain} (${w.privacy})"]
}

output "tracking_codes" {
  description = "The tracking code to put on every page of each website (the same for all of them)."
  value = merge(
    { (analytics_website.blog.domain) = analytics_website.blog.tracking_code },
    { (analytics_website.shop.domain) = analytics_website.shop.tracking_code },
    { for k, w in analytics_website.internal : w.domain => w.tracking_code },
  )
}
