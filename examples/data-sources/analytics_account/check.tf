# Warn at every plan and apply, without failing, when the key's user comes
# within two websites of its plan's limit, or when its plan sends no e-mail
# reports.
check "account_headroom" {
  data "analytics_account" "headroom" {}

  assert {
    condition = (data.analytics_account.headroom.plan.websites_unlimited ||
    data.analytics_account.headroom.websites_count <= data.analytics_account.headroom.plan.websites - 2)
    error_message = "The API key's user holds ${data.analytics_account.headroom.websites_count} of the ${data.analytics_account.headroom.plan.websites} websites its plan \"${data.analytics_account.headroom.plan.name}\" allows: ask for a larger plan before adding more."
  }

  assert {
    condition     = data.analytics_account.headroom.plan.email_reports
    error_message = "The plan \"${data.analytics_account.headroom.plan.name}\" sends no e-mail reports: websites with email_reports = true get none."
  }
}
