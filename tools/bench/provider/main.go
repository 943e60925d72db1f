// Command provider is the provider as `make bench` runs it: the release's
// main (pluginmain.Main, which the repository's main.go calls too) with a
// CPU profile of the whole process when cpuprofile.DirEnv names a
// directory. The bench builds it instead of the release binary, which has
// no such switch.
package main

import (
	"os"

	"github.com/analytics-tf/terraform-provider-analytics/internal/pluginmain"
	"github.com/analytics-tf/terraform-provider-analytics/tools/bench/internal/cpuprofile"
)

// version is set by the bench's build (-ldflags -X main.version=...).
var version = "dev"

func main() {
	pluginmain.Main(version, func(serve func() error) error {
		stopProfile := cpuprofile.Start(os.Getenv(cpuprofile.DirEnv))
		err := serve()
		stopProfile()
		return err
	})
}
