# Adopt every website of the account in one plan (Terraform 1.7 or later,
# OpenTofu 1.7 or later): the list data source reads them all at once, and
# an import block with for_each brings each one under the resource below.

data "analytics_websites" "all" {}

locals {
  # Keyed by domain, so that each website's address in the state is
  # analytics_website.site["example.com"]. Terraform stops with "Duplicate
  # object key" if two websites share a domain: delete or rename one first.
  # A domain with "@" (a URL with a password pasted into the web interface)
  # would put that password into an address: import it by id on its own.
  websites = { for w in data.analytics_websites.all.websites : w.domain => w if !strcontains(w.domain, "@") }
}

import {
  for_each = local.websites
  to       = analytics_website.site[each.key]
  id       = each.value.id # or each.key: import by domain costs the same
}

resource "analytics_website" "site" {
  for_each = local.websites

  domain        = each.key
  privacy       = each.value.privacy
  email_reports = each.value.email_reports
  exclude_bots  = each.value.exclude_bots
  exclude_ips   = each.value.exclude_ips
  # exclude_params and the password are not set: the API never returns
  # them, so they stay unmanaged and the server keeps what it has.

  lifecycle {
    # The websites come from the account itself: never let a mistake (or
    # `terraform destroy`) delete them and their statistics.
    prevent_destroy = true
  }
}
