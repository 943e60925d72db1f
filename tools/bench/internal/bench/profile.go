package bench

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"

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
// profiled step, from the profiles of every provider process of the step.
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
	api, w, err := b.site(fmt.Sprintf("profile-%d", n), emulator.Options{})
	if err != nil {
		return run, nil, err
	}
	defer api.close()
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
	prof, err := readProfiles(dir)
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

// readProfiles reads the CPU profiles in dir with pprof's own reader
// (github.com/google/pprof/profile) and sums them: their samples as `go tool
// pprof -traces` lists them, the tops of `go tool pprof -top` (with and
// without hideRuntime) and the components.
func readProfiles(dir string) (*Profile, error) {
	all, err := filepath.Glob(filepath.Join(dir, "cpu-*.pprof"))
	if err != nil {
		return nil, err
	}
	prof := &Profile{}
	var traces []Trace
	for _, f := range all {
		t, err := readTraces(f)
		if err != nil { // a profile that was not flushed is empty or does not parse
			prof.Unreadable++
			continue
		}
		prof.Files++
		traces = append(traces, t...)
	}
	if prof.Files == 0 {
		return nil, fmt.Errorf("no readable profile in %s (%d files)", dir, len(all))
	}
	for _, t := range traces {
		prof.Samples += t.Seconds
	}
	prof.Top = topFunctions(traces, nil)
	prof.TopOutsideRuntime = topFunctions(traces, regexp.MustCompile(hideRuntime))
	prof.Components = Components(traces)
	return prof, nil
}

// Trace is one sample of a CPU profile: its CPU time in seconds and its
// functions, innermost first, inlined ones included (as `go tool pprof
// -traces` lists them).
type Trace struct {
	Seconds float64
	Frames  []string
}

// readTraces reads the samples of the CPU profile in file.
func readTraces(file string) ([]Trace, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(p.SampleType, func(t *profile.ValueType) bool { return t.Type == "cpu" && t.Unit == "nanoseconds" })
	if i < 0 {
		return nil, fmt.Errorf("%s is not a CPU profile", file)
	}
	traces := make([]Trace, 0, len(p.Sample))
	for _, s := range p.Sample {
		t := Trace{Seconds: time.Duration(s.Value[i]).Seconds()}
		for _, loc := range s.Location {
			for _, line := range loc.Line { // the inlined functions first, then the one they were inlined into
				if line.Function != nil {
					t.Frames = append(t.Frames, line.Function.Name)
				}
			}
		}
		if len(t.Frames) > 0 {
			traces = append(traces, t)
		}
	}
	return traces, nil
}

// topFunctions returns the ProfileTopN functions with the most time of
// their own, as `go tool pprof -top` lists them (by flat time, then name). Frames
// whose function hide matches are dropped first (pprof -hide): their time
// goes to the innermost frame kept.
func topFunctions(traces []Trace, hide *regexp.Regexp) []ProfileFunc {
	flat, cum := map[string]float64{}, map[string]float64{}
	for _, t := range traces {
		frames := t.Frames
		if hide != nil {
			frames = slices.DeleteFunc(slices.Clone(frames), hide.MatchString)
		}
		if len(frames) == 0 {
			continue
		}
		flat[frames[0]] += t.Seconds
		seen := map[string]bool{}
		for _, f := range frames {
			if !seen[f] {
				seen[f] = true
				cum[f] += t.Seconds
			}
		}
	}
	funcs := make([]ProfileFunc, 0, len(cum))
	for name, c := range cum {
		funcs = append(funcs, ProfileFunc{Name: name, Flat: flat[name], Cum: c})
	}
	slices.SortFunc(funcs, func(a, b ProfileFunc) int { // pprof's order: flat, then name
		return cmp.Or(cmp.Compare(b.Flat, a.Flat), strings.Compare(a.Name, b.Name))
	})
	return funcs[:min(len(funcs), ProfileTopN)]
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
	return os.CopyFS(keep, os.DirFS(dir)) // dir holds the profiles alone
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
		return cmp.Or(cmp.Compare(b.Attributed, a.Attributed), cmp.Compare(b.Self, a.Self), cmp.Compare(b.Stack, a.Stack),
			strings.Compare(a.Name, b.Name))
	})
	return out
}
