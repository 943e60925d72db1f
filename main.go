package main

import (
	"flag"
	"log"

	"github.com/analytics-tf/terraform-provider-analytics/internal/pluginruntime"
	"github.com/analytics-tf/terraform-provider-analytics/internal/provider"
)

// version is set by the release build (goreleaser ldflags).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug {
		pluginruntime.QuietUnreadLogs()
	}
	pluginruntime.CollectLessOften()
	err := pluginruntime.Serve("registry.terraform.io/analytics-tf/analytics", provider.NewServer(provider.New(version)()), debug)
	if err != nil {
		log.Fatal(err.Error())
	}
}
