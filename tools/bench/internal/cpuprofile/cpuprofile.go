// Package cpuprofile is the CPU profile of the provider that make bench
// builds (tools/bench/provider): the variable that asks for it and the
// profile's start and stop.
package cpuprofile

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// DirEnv names a directory: when it is set, the bench's provider
// (tools/bench/provider) writes a
// CPU profile of its whole life to cpu-<pid>.pprof there. Terraform starts
// the provider several times per command, each a process and a profile of
// its own.
const DirEnv = "TF_ANALYTICS_CPUPROFILE_DIR"

// Start starts a CPU profile written to dir/cpu-<pid>.pprof
// (none when dir is empty) and returns the function that stops and flushes
// it. providerserver.Serve returns when Terraform stops the plugin normally
// (go-plugin's Shutdown call stops the gRPC server, and its Serve returns
// instead of exiting), so the profile is complete then; a plugin that is
// killed leaves a truncated file.
func Start(dir string) (stop func()) {
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid())))
	if err != nil {
		log.Printf("[WARN] %s: %v", DirEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Printf("[WARN] %s: %v", DirEnv, err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Printf("[WARN] %s: %v", DirEnv, err)
		}
	}
}
