// Command provider is the provider as `make bench` runs it: the release's
// main (the repository's main.go: the same process settings of
// internal/pluginruntime, the same providerserver.Serve) with a CPU profile
// of the whole process when cpuprofile.DirEnv names a directory. The bench
// builds it instead of the release binary, which has no such switch.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/analytics-tf/terraform-provider-analytics/internal/pluginruntime"
	"github.com/analytics-tf/terraform-provider-analytics/internal/provider"
	"github.com/analytics-tf/terraform-provider-analytics/tools/bench/internal/cpuprofile"
)

// version is set by the bench's build (-ldflags -X main.version=...).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug {
		pluginruntime.QuietUnreadLogs()
	}
	pluginruntime.CollectLessOften()

	stopProfile := cpuprofile.Start(os.Getenv(cpuprofile.DirEnv))
	err := pluginruntime.Serve("registry.terraform.io/analytics-tf/analytics", provider.NewServer(provider.New(version)()), debug)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}
