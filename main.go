package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/analytics-tf/terraform-provider-analytics/internal/provider"
)

// version is set by the release build (goreleaser ldflags).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug {
		quietUnreadLogs()
	}
	collectLessOften()

	stopProfile := startCPUProfile()
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/analytics-tf/analytics",
		Debug:   debug,
	})
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}

// quietUnreadLogs turns the SDK's and the provider's loggers off when
// Terraform (or OpenTofu) will discard what they write. The host keeps a
// provider's logs only when TF_LOG or TF_LOG_PROVIDER is set, but without
// them the SDK loggers default to TRACE: every request JSON-encodes a few
// dozen log lines that the host decodes and drops, which was a third of the
// provider's CPU time and made an apply of 500 websites about 1.4 times
// slower (see BENCHMARKS.md). A variable that is set explicitly is kept.
func quietUnreadLogs() {
	if os.Getenv("TF_LOG") != "" || os.Getenv("TF_LOG_PROVIDER") != "" {
		return
	}
	for _, name := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_ANALYTICS"} {
		if _, set := os.LookupEnv(name); !set {
			_ = os.Setenv(name, "OFF")
		}
	}
}

// gcPercent and gcMemoryLimit are the provider's garbage collector
// settings where GOGC and GOMEMLIMIT leave them to the program.
const (
	gcPercent     = 400
	gcMemoryLimit = 512 << 20
)

// collectLessOften makes the garbage collector run a quarter as often as
// Go's default (GOGC=100). The provider's live heap is small (a few MiB per
// hundred websites) but every one of Terraform's calls allocates, so with
// the default the collector was about half of the provider's CPU time in an
// apply of 500 websites (see BENCHMARKS.md). The peak heap grows to about
// five times the live heap instead of twice; a soft memory limit makes the
// collector work harder again before the heap reaches gcMemoryLimit.
// GOGC and GOMEMLIMIT, where set, are kept.
func collectLessOften() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(gcMemoryLimit)
	}
}

// cpuProfileDirEnv names a directory: when it is set, the provider writes a
// CPU profile of its whole life to cpu-<pid>.pprof there (make bench uses
// it; see BENCHMARKS.md). Terraform starts the provider several times per
// command, each a process and a profile of its own.
const cpuProfileDirEnv = "TF_ANALYTICS_CPUPROFILE_DIR"

// startCPUProfile starts the CPU profile that cpuProfileDirEnv asks for and
// returns the function that stops and flushes it. providerserver.Serve
// returns when Terraform stops the plugin normally (go-plugin's Shutdown
// call stops the gRPC server, and its Serve returns instead of exiting), so
// the profile is complete then; a plugin that is killed leaves a truncated
// file.
func startCPUProfile() (stop func()) {
	dir := os.Getenv(cpuProfileDirEnv)
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid())))
	if err != nil {
		log.Printf("[WARN] %s: %v", cpuProfileDirEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Printf("[WARN] %s: %v", cpuProfileDirEnv, err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Printf("[WARN] %s: %v", cpuProfileDirEnv, err)
		}
	}
}
