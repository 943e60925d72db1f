resource "analytics_website" "shop" {
  domain = "shop.example.com"
}

# By hand (Terraform 1.14 or later):
#   terraform apply -invoke=action.analytics_website_statistics_export.shop_history
# writes exports/shop.example.com-<UTC time>-<random>/ with one file per statistics
# name and manifest.json.
action "analytics_website_statistics_export" "shop_history" {
  config {
    website_id = analytics_website.shop.id
    directory  = "${path.root}/exports"
  }
}

# Before the website is destroyed (Terraform 1.16 or later): by terraform
# destroy, a new domain, or -replace. Not when this block is removed, which
# takes the trigger with it: export by hand first. If the export fails, the
# website is not deleted.
resource "analytics_website" "blog" {
  domain = "blog.example.com"

  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.analytics_website_statistics_export.before_destroy]
    }
  }
}

action "analytics_website_statistics_export" "before_destroy" {
  config {
    website_id = caller.id # the website being destroyed
    directory  = "${path.root}/exports"
    format     = "csv"
  }
}
