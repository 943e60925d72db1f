// Package pluginruntime holds the settings of the provider's plugin process
// that main applies before serving: its logging, its garbage collector and
// an optional CPU profile. BENCHMARKS.md has what each of them saves.
package pluginruntime

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
)

// QuietUnreadLogs turns the SDK's and the provider's loggers off when
// Terraform (or OpenTofu) will discard what they write. The host keeps a
// provider's logs only when TF_LOG or TF_LOG_PROVIDER is set, but without
// them the SDK loggers default to TRACE: every request would JSON-encode a
// few dozen log lines that the host decodes and drops. A variable that is
// set explicitly is kept.
func QuietUnreadLogs() {
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

// CollectLessOften makes the garbage collector run a quarter as often as
// Go's default (GOGC=100): the provider's live heap is small, but every one
// of Terraform's calls allocates, so the default collects far more often
// than the heap needs. The peak heap grows to about five times the live
// heap instead of twice; a soft memory limit makes the collector work
// harder again before the heap reaches gcMemoryLimit. GOGC and GOMEMLIMIT,
// where set, are kept.
func CollectLessOften() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(gcMemoryLimit)
	}
}

// CPUProfileDirEnv names a directory: when it is set, the provider writes a
// CPU profile of its whole life to cpu-<pid>.pprof there (make bench uses
// it; see BENCHMARKS.md). Terraform starts the provider several times per
// command, each a process and a profile of its own.
const CPUProfileDirEnv = "TF_ANALYTICS_CPUPROFILE_DIR"

// StartCPUProfile starts the CPU profile that CPUProfileDirEnv asks for and
// returns the function that stops and flushes it. providerserver.Serve
// returns when Terraform stops the plugin normally (go-plugin's Shutdown
// call stops the gRPC server, and its Serve returns instead of exiting), so
// the profile is complete then; a plugin that is killed leaves a truncated
// file.
func StartCPUProfile() (stop func()) {
	dir := os.Getenv(CPUProfileDirEnv)
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid())))
	if err != nil {
		log.Printf("[WARN] %s: %v", CPUProfileDirEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Printf("[WARN] %s: %v", CPUProfileDirEnv, err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Printf("[WARN] %s: %v", CPUProfileDirEnv, err)
		}
	}
}
