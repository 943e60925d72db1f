// Package pluginmain is the provider binary's main, shared by the release
// (the repository's main.go) and the provider make bench measures
// (tools/bench/provider), so that the bench runs the binary users run.
package pluginmain

import (
	"flag"
	"log"

	"github.com/analytics-tf/terraform-provider-analytics/internal/pluginruntime"
	"github.com/analytics-tf/terraform-provider-analytics/internal/provider"
)

// Address is the provider's address in the Terraform registry.
const Address = "registry.terraform.io/analytics-tf/analytics"

// Main reads the flags (-debug), applies the process settings of
// pluginruntime and serves the provider of the given version through its
// gate (pluginruntime.Serve). around, when not nil, runs the serving: the
// bench's starts a CPU profile before it and stops it after. An error ends
// the process.
func Main(version string, around func(serve func() error) error) {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug {
		pluginruntime.QuietUnreadLogs()
	}
	pluginruntime.CollectLessOften()
	serve := func() error {
		return pluginruntime.Serve(Address, provider.NewServer(provider.New(version)()), debug)
	}
	if around == nil {
		around = func(serve func() error) error { return serve() }
	}
	if err := around(serve); err != nil {
		log.Fatal(err.Error())
	}
}
