# A public website (the default privacy): anyone can view its statistics.
resource "analytics_website" "blog" {
  domain = "blog.example.com"
}

variable "stats_password" {
  description = "Password that visitors must enter to view the statistics."
  type        = string
  sensitive   = true
}

# A website whose statistics are protected by a password, with periodic
# e-mail reports. The API never returns the password, only whether one is set:
# a password removed outside Terraform is set again by the next apply.
resource "analytics_website" "shop" {
  domain   = "shop.example.com"
  privacy  = "password"
  password = var.stats_password

  email_reports = true
}

# With Terraform 1.11 or later (or OpenTofu 1.11 or later) the password can
# be write-only instead, so that it is never stored in the plan or the state.
# Increment password_wo_version to send a new password.
resource "analytics_website" "docs" {
  domain              = "docs.example.com"
  privacy             = "password"
  password_wo         = var.stats_password
  password_wo_version = 1
}

# A private website with exclusions: bot traffic is not counted (the
# default), the listed query parameters are stripped from recorded URLs ("&"
# strips all of them), and visits from these addresses are ignored.
resource "analytics_website" "intranet" {
  domain  = "intranet.example.com"
  privacy = "private"

  exclude_bots   = true
  exclude_params = ["utm_source", "utm_medium", "utm_campaign", "fbclid"]
  exclude_ips = [
    "203.0.113.0/24",
    "198.51.100.7",
    "2001:db8::/32",
  ]
}
