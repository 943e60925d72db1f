# Stop the plan, before anything is written, when this configuration's
# websites do not fit in the key user's plan (this configuration holds all
# of the user's websites), or when it asks for e-mail reports on a plan
# without them.
data "analytics_account" "current" {}

variable "sites" {
  type    = set(string)
  default = ["one.example.com", "two.example.com", "three.example.com"]
}

variable "email_reports" {
  type    = bool
  default = true
}

resource "analytics_website" "site" {
  for_each      = var.sites
  domain        = each.key
  email_reports = var.email_reports

  lifecycle {
    precondition {
      condition     = data.analytics_account.current.plan.websites_unlimited || length(var.sites) <= data.analytics_account.current.plan.websites
      error_message = "This configuration manages ${length(var.sites)} websites, but the plan \"${data.analytics_account.current.plan.name}\" allows ${data.analytics_account.current.plan.websites}."
    }
    precondition {
      condition     = !var.email_reports || data.analytics_account.current.plan.email_reports
      error_message = "The plan \"${data.analytics_account.current.plan.name}\" sends no e-mail reports: set email_reports = false."
    }
  }
}
