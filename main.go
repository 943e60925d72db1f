package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

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

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/analytics-tf/analytics",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
