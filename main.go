package main

import "github.com/analytics-tf/terraform-provider-analytics/internal/pluginmain"

// version is set by the release build (goreleaser ldflags).
var version = "dev"

func main() { pluginmain.Main(version, nil) }
