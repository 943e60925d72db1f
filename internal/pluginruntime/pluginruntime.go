// Package pluginruntime holds the settings of the provider's plugin process
// that main applies before serving: its logging and its garbage collector.
// BENCHMARKS.md has what each of them saves. (The CPU profile of make bench
// is the bench's own build of the provider: tools/bench/provider.)
package pluginruntime

import (
	"os"
	"runtime/debug"
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
