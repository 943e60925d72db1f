resource "analytics_website" "plain" {
  domain = "plain.example"
}
resource "analytics_website" "managed" {
  domain         = "managed.example"
  exclude_params = ["utm_source", "fbclid"]
  exclude_ips    = ["10.0.0.0/8"]
}
resource "analytics_website" "secret" {
  domain   = "secret.example"
  privacy  = "password"
  password = "s3cret-pass"
}
