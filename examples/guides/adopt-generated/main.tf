# One resource block per website: this configuration writes an import
# block for each website of the account, for
# `terraform plan -generate-config-out=generated.tf` to turn into resource
# blocks.

data "analytics_websites" "all" {
  sort_by = "domain"
  sort    = "asc"
}

# Each name ends with the website's id, so that two domains that differ
# only in punctuation (shop-eu.example.com, shop.eu.example.com) get two
# names. A domain with "@" (a URL with a password pasted into the web
# interface) would put that password into a name: import it by id on its own.
output "import_blocks" {
  value = join("", [
    for w in data.analytics_websites.all.websites :
    "import {\n  to = analytics_website.site_${replace(w.domain, "/[^a-z0-9_]/", "_")}_${w.id}\n  id = \"${w.id}\"\n}\n"
    if !strcontains(w.domain, "@")
  ])
}
