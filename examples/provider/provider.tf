terraform {
  required_providers {
    analytics = {
      source = "analytics-tf/analytics"
    }
  }
}

variable "analytics_api_key" {
  description = "API key of the phpAnalytics user whose websites Terraform manages."
  type        = string
  sensitive   = true
}

# base_url and api_key can be left out and taken from the ANALYTICS_BASE_URL
# and ANALYTICS_API_KEY environment variables instead.
provider "analytics" {
  # The root of the phpAnalytics installation, including any path prefix;
  # the provider appends /api/v1.
  base_url = "https://analytics.example.com"
  api_key  = var.analytics_api_key

  # Optional tuning, shown with their defaults.
  timeout     = "30s"
  max_retries = 4

  # The address visitors' browsers reach the installation at, for the
  # websites' tracking_code (defaults to base_url), and whether the tracking
  # script honours Do Not Track (defaults to false, as the application does).
  tracking_url         = "https://analytics.example.com"
  tracking_respect_dnt = false

  # Where browsers load the tracking script from, when the installation
  # serves it from a CDN (defaults to tracking_url + "/js/script.js").
  # tracking_script_url = "https://cdn.example.com/js/script.js"
}
