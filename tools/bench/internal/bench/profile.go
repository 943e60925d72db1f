package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
	"github.com/analytics-tf/terraform-provider-analytics/tools/bench/internal/cpuprofile"
)

// ProfileTopN is the number of functions in the profile's top tables.
const ProfileTopN = 12

// hideRuntime is the pprof -hide expression of the second top table: the Go
// runtime's frames are dropped, so that their time goes to the function
// that called into the runtime (allocation, garbage collection assists,
// map and channel operations).
const hideRuntime = `^(runtime|internal/runtime)[./]`

// Profile is where the provider processes' CPU time went during one
// profiled step, from `go tool pprof` over the profiles of every provider
// process of the step.
type Profile struct {
	// N websites were created by the profiled step, in Wall seconds, by
	// Processes provider processes.
	N         int     `json:"n"`
	Wall      float64 `json:"wall_seconds"`
	Processes int     `json:"processes"`
	// Files profiles were read; Unreadable more were not (a plugin that
	// was killed before it flushed its profile).
	Files      int `json:"files"`
	Unreadable int `json:"unreadable,omitempty"`
	// Samples is the CPU time sampled in all profiles, in seconds.
	Samples float64 `json:"samples_seconds"`
	// Top are the functions with the most time of their own (pprof -top).
	Top []ProfileFunc `json:"top"`
	// TopOutsideRuntime is the same with the Go runtime's frames hidden
	// (pprof -top -hide=hideRuntime).
	TopOutsideRuntime []ProfileFunc `json:"top_outside_runtime"`
	// Components sum the samples by the code they ran in.
	Components []ProfileComponent `json:"components"`
	// Dir is where the profiles were kept (relative to the repository
	// root; empty when not kept).
	Dir string `json:"dir,omitempty"`
}

// ProfileFunc is one line of `go tool pprof -top`, in seconds.
type ProfileFunc struct {
	Name string  `json:"name"`
	Flat float64 `json:"flat_seconds"`
	Cum  float64 `json:"cum_seconds"`
}

// ProfileComponent is the time of the samples, in seconds, whose innermost
// frame is in the component's code (Self), whose innermost frame outside
// the standard library (the Go runtime included) is (Attributed: the code
// that made the runtime allocate, collect garbage, read or write), or that
// have it anywhere on the stack (Stack).
type ProfileComponent struct {
	Name       string  `json:"name"`
	Self       float64 `json:"self_seconds"`
	Attributed float64 `json:"attributed_seconds"`
	Stack      float64 `json:"stack_seconds"`
}

// profilePass creates n websites with the provider's CPU profile on, and
// reads the profiles.
func (b *bench) profilePass(ctx context.Context, n int) (*Run, *Profile, error) {
	run := &Run{Pass: PassProfile, Kind: KindWebsite, N: n}
	api, err := startAPI(emulator.Options{})
	if err != nil {
		return run, nil, err
	}
	defer api.close()
	w, err := b.newWorkspace(fmt.Sprintf("profile-%d", n), KindWebsite, api)
	if err != nil {
		return run, nil, err
	}
	dir := filepath.Join(b.tmp, "profiles")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return run, nil, err
	}
	w.env = append(w.env, cpuprofile.DirEnv+"="+dir)
	if err := w.configure(n, false); err != nil {
		return run, nil, err
	}
	s := w.run(ctx, StepCreate)
	w.check(s, n, 0)
	run.Steps = append(run.Steps, s)
	logStep(b.cfg.Log, run, s)
	if !s.OK() {
		return run, nil, ctx.Err()
	}
	prof, err := b.readProfiles(ctx, dir)
	if err != nil {
		logf(b.cfg.Log, "reading the CPU profiles: %v", err)
		return run, nil, ctx.Err()
	}
	prof.N, prof.Wall, prof.Processes = n, s.Wall, s.ProviderProcesses
	if b.cfg.ProfileDir != "" {
		keep := b.cfg.ProfileDir
		if !filepath.IsAbs(keep) {
			keep = filepath.Join(b.cfg.Root, keep)
		}
		if err := keepProfiles(dir, keep); err != nil {
			logf(b.cfg.Log, "keeping the CPU profiles: %v", err)
		} else {
			prof.Dir = b.cfg.ProfileDir
		}
	}
	return run, prof, ctx.Err()
}

// readProfiles runs `go tool pprof` on the profiles in dir.
func (b *bench) readProfiles(ctx context.Context, dir string) (*Profile, error) {
	all, err := filepath.Glob(filepath.Join(dir, "cpu-*.pprof"))
	if err != nil {
		return nil, err
	}
	prof := &Profile{}
	pprof := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "go", append([]string{"tool", "pprof"}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("go tool pprof %s: %w: %s", strings.Join(args[:min(len(args), 2)], " "), err, strings.TrimSpace(stderr.String()))
		}
		return string(out), nil
	}
	var files []string
	for _, f := range all {
		// A profile that was not flushed is empty or does not parse.
		if _, err := pprof("-top", "-nodecount=1", f); err != nil {
			prof.Unreadable++
			continue
		}
		files = append(files, f)
	}
	prof.Files = len(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("no readable profile in %s (%d files)", dir, len(all))
	}
	top, err := pprof(append([]string{"-top", "-nodecount=" + strconv.Itoa(ProfileTopN)}, files...)...)
	if err != nil {
		return nil, err
	}
	if prof.Samples, prof.Top, err = ParsePprofTop(top); err != nil {
		return nil, err
	}
	top, err = pprof(append([]string{"-top", "-nodecount=" + strconv.Itoa(ProfileTopN), "-hide=" + hideRuntime}, files...)...)
	if err != nil {
		return nil, err
	}
	if _, prof.TopOutsideRuntime, err = ParsePprofTop(top); err != nil {
		return nil, err
	}
	traces, err := pprof(append([]string{"-traces"}, files...)...)
	if err != nil {
		return nil, err
	}
	prof.Components = Components(ParsePprofTraces(traces))
	return prof, nil
}

// keepProfiles copies the profiles from dir to keep, replacing those of an
// earlier run.
func keepProfiles(dir, keep string) error {
	if err := os.MkdirAll(keep, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(keep, "cpu-*.pprof"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "cpu-*.pprof"))
	if err != nil {
		return err
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(keep, filepath.Base(f)), raw, 0o644); err != nil { //nolint:gosec // profiles are not secret
			return err
		}
	}
	return nil
}

var (
	pprofTotalRE = regexp.MustCompile(`Total samples = (\S+)`)
	pprofTopRE   = regexp.MustCompile(`^\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(.+?)\s*$`)
)

// ParsePprofTop reads the output of `go tool pprof -top` of a CPU profile:
// the total sampled time and the functions listed, in seconds.
func ParsePprofTop(out string) (total float64, funcs []ProfileFunc, err error) {
	m := pprofTotalRE.FindStringSubmatch(out)
	if m == nil {
		return 0, nil, errors.New("pprof -top: no \"Total samples\"")
	}
	if total, err = parsePprofDuration(m[1]); err != nil {
		return 0, nil, err
	}
	header := false
	for line := range strings.Lines(out) {
		if !header {
			f := strings.Fields(line)
			header = len(f) >= 5 && f[0] == "flat" && f[1] == "flat%"
			continue
		}
		m := pprofTopRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		flat, err1 := parsePprofDuration(m[1])
		cum, err2 := parsePprofDuration(m[2])
		if err := errors.Join(err1, err2); err != nil {
			return 0, nil, err
		}
		funcs = append(funcs, ProfileFunc{Name: m[3], Flat: flat, Cum: cum})
	}
	if !header {
		return 0, nil, errors.New("pprof -top: no table")
	}
	return total, funcs, nil
}

// parsePprofDuration reads pprof's durations: "0", "10ms", "1.23s",
// "1.5mins", "250us".
func parsePprofDuration(s string) (float64, error) {
	if s == "0" {
		return 0, nil
	}
	for _, u := range []struct {
		suffix string
		scale  float64
	}{{"mins", 60}, {"hrs", 3600}, {"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9}, {"s", 1}} {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return 0, fmt.Errorf("pprof duration %q: %w", s, err)
			}
			return v * u.scale, nil
		}
	}
	return 0, fmt.Errorf("pprof duration %q: unknown unit", s)
}

// Trace is one stack of `go tool pprof -traces`: its samples' time in
// seconds and its frames, innermost first.
type Trace struct {
	Seconds float64
	Frames  []string
}

// ParsePprofTraces reads the output of `go tool pprof -traces` of a CPU
// profile. Label lines (name:value) are skipped.
func ParsePprofTraces(out string) []Trace {
	var traces []Trace
	var cur *Trace
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "-----------+") {
			cur = nil
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if cur == nil {
			f := strings.Fields(line)
			if len(f) < 2 || !strings.HasPrefix(line, " ") {
				continue // the header
			}
			v, err := parsePprofDuration(f[0])
			if err != nil {
				continue // a label line before the stack
			}
			traces = append(traces, Trace{Seconds: v, Frames: []string{strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))}})
			cur = &traces[len(traces)-1]
			continue
		}
		cur.Frames = append(cur.Frames, strings.TrimSpace(line))
	}
	return traces
}

// component is a part of the provider process's code, by function name
// prefixes.
type component struct {
	name     string
	prefixes []string
}

// components are checked in order; the first whose prefix matches a
// function's name gets it.
var components = []component{
	{"the provider's own code (this repository)", []string{"github.com/analytics-tf/terraform-provider-analytics/", "main."}},
	{"terraform-plugin-framework", []string{"github.com/hashicorp/terraform-plugin-framework"}},
	{"terraform-plugin-go (protocol, tftypes, msgpack)", []string{"github.com/hashicorp/terraform-plugin-go", "github.com/vmihailenco/"}},
	{"logging (terraform-plugin-log, go-hclog)", []string{"github.com/hashicorp/terraform-plugin-log", "github.com/hashicorp/go-hclog", "log."}},
	{"gRPC, protobuf, go-plugin", []string{"google.golang.org/", "github.com/hashicorp/go-plugin", "github.com/hashicorp/yamux", "golang.org/x/net/", "github.com/golang/protobuf"}},
	{"HTTP client (net/http, go-retryablehttp)", []string{"net/http", "github.com/hashicorp/go-retryablehttp", "github.com/hashicorp/go-cleanhttp", "net/url", "mime"}},
	{"crypto and TLS (go-plugin's AutoMTLS)", []string{"crypto/", "vendor/golang.org/x/crypto", "golang.org/x/crypto", "math/big"}},
	{"encoding/json", []string{"encoding/json"}},
	{"the profiler itself (runtime/pprof)", []string{"runtime/pprof"}},
	{"Go runtime (GC, scheduler, allocation)", []string{"runtime.", "runtime/", "internal/runtime", "gcWriteBarrier", "aeshash"}},
	{"system calls and I/O", []string{"syscall.", "internal/poll", "internal/syscall", "net.", "os."}},
}

const (
	componentStd   = "other standard library"
	componentOther = "other"
)

// componentOf returns the component of a function.
func componentOf(fn string) string {
	for _, c := range components {
		for _, p := range c.prefixes {
			if strings.HasPrefix(fn, p) {
				return c.name
			}
		}
	}
	if isStd(fn) {
		return componentStd
	}
	return componentOther
}

// isStd reports whether fn is in the standard library (the Go runtime
// included): "sync.(*Mutex).Lock", "internal/poll.(*FD).Read",
// "vendor/golang.org/x/net/...", but not "main.main".
func isStd(fn string) bool {
	if strings.HasPrefix(fn, "main.") {
		return false
	}
	name, _, _ := strings.Cut(fn, "[") // type parameters may name other packages
	first, _, slash := strings.Cut(name, "/")
	return !slash || !strings.Contains(first, ".") || first == "vendor"
}

// attributedTo returns the component of a trace's innermost frame outside
// the standard library, or of its innermost frame if all are in it (the
// garbage collector's own goroutines, the HTTP client's connections).
func attributedTo(frames []string) string {
	for _, f := range frames {
		if !isStd(f) {
			return componentOf(f)
		}
	}
	return componentOf(frames[0])
}

// Components sums traces by component: Self by the innermost frame's,
// Attributed by the innermost frame outside the standard library, Stack by
// every component on the stack (once per trace). The result is sorted by
// Attributed, then Self, then Stack, largest first, without empty
// components.
func Components(traces []Trace) []ProfileComponent {
	self, attributed, stack := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for _, t := range traces {
		if len(t.Frames) == 0 {
			continue
		}
		self[componentOf(t.Frames[0])] += t.Seconds
		attributed[attributedTo(t.Frames)] += t.Seconds
		seen := map[string]bool{}
		for _, f := range t.Frames {
			if c := componentOf(f); !seen[c] {
				seen[c] = true
				stack[c] += t.Seconds
			}
		}
	}
	var out []ProfileComponent
	for name, st := range stack {
		out = append(out, ProfileComponent{Name: name, Self: self[name], Attributed: attributed[name], Stack: st})
	}
	slices.SortFunc(out, func(a, b ProfileComponent) int {
		switch {
		case a.Attributed != b.Attributed:
			return cmpDesc(a.Attributed, b.Attributed)
		case a.Self != b.Self:
			return cmpDesc(a.Self, b.Self)
		case a.Stack != b.Stack:
			return cmpDesc(a.Stack, b.Stack)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}
