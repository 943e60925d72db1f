# In a pipeline, the runner's folders go with the runner: export into a
# bucket instead. The credentials come from the environment of the process
# that runs Terraform (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY,
# AWS_PROFILE, or the runner's role), never from the configuration.
resource "analytics_website" "news" {
  domain = "news.example.com"

  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.analytics_website_statistics_export.to_s3]
    }
  }
}

# Amazon S3: writes s3://example-analytics-archive/websites/<domain>-<UTC time>-<random>/.
action "analytics_website_statistics_export" "to_s3" {
  config {
    website_id  = caller.id
    destination = "s3://example-analytics-archive/websites?region=eu-central-1"
  }
}

# A self-hosted S3-compatible store (MinIO, SeaweedFS, Ceph, Garage, ...):
# its address as endpoint, and path-style addressing.
action "analytics_website_statistics_export" "to_minio" {
  config {
    domain      = "news.example.com"
    destination = "s3://analytics-archive/websites?endpoint=https://minio.example.com:9000&region=us-east-1&use_path_style=true"
    format      = "csv"
  }
}
