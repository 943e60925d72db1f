# One resource block per website: this configuration writes an import
# block for each website of the account, for
# `terraform plan -generate-config-out=generated.tf` to turn into resource
# blocks.

data "analytics_websites" "all" {
  sort_by = "domain"
  sort    = "asc"
}

output "import_blocks" {
  value = join("", [
    for w in data.analytics_websites.all.websites :
    "import {\n  to = analytics_website.site_${replace(w.domain, "/[^a-z0-9_]/", "_")}\n  id = \"${w.id}\"\n}\n"
  ])
}
