# An installation on an internal network: its certificate comes from a
# private CA, the reverse proxy in front of it requires a client certificate,
# and an access proxy asks for a service token.
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

variable "client_key_pem" {
  description = "PEM private key of the client certificate."
  type        = string
  sensitive   = true
}

variable "access_client_secret" {
  description = "Secret of the access proxy's service token."
  type        = string
  sensitive   = true
}

provider "analytics" {
  base_url = "https://analytics.internal.example.com"
  api_key  = var.analytics_api_key

  # The private CA that signs the installation's certificate, trusted in
  # addition to the system's roots (or ca_pem = the PEM text).
  ca_file = "/etc/ssl/private-ca.pem"

  # Mutual TLS: the client certificate and its key, as files or PEM text.
  cert_file = "/etc/analytics/terraform-client.pem"
  key_pem   = var.client_key_pem

  # Sent with every request; the values are never logged.
  headers = {
    "CF-Access-Client-Id"     = "0123456789abcdef.access"
    "CF-Access-Client-Secret" = var.access_client_secret
  }
}
