# The API key's user, its plan and how many websites it holds now.
data "analytics_account" "this" {}

output "websites_left" {
  value = (data.analytics_account.this.plan.websites_unlimited
    ? "unlimited"
    : tostring(data.analytics_account.this.plan.websites - data.analytics_account.this.websites_count)
  )
}
