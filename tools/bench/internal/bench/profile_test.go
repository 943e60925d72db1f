package bench

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// profileTraces are the samples of the profile TestReadProfiles writes:
// a provider's create, go-plugin's certificate, the garbage collector, an
// HTTP request, innermost function first.
var profileTraces = []Trace{
	{0.02, []string{"runtime.mallocgc", "github.com/hashicorp/terraform-plugin-go/tftypes.NewValue",
		"github.com/hashicorp/terraform-plugin-framework/internal/fwserver.(*Server).CreateResource",
		"github.com/analytics-tf/terraform-provider-analytics/internal/provider.(*websiteResource).Create",
		"github.com/hashicorp/terraform-plugin-framework/internal/fwserver.(*Server).CreateResource",
		"google.golang.org/grpc.(*Server).handleStream"}},
	{0.01, []string{"crypto/internal/fips140/nistec/fiat.p521Mul", "crypto/ecdsa.GenerateKey",
		"github.com/hashicorp/go-plugin.generateCert", "github.com/hashicorp/go-plugin.Serve", "main.main"}},
	{0.03, []string{"runtime.gcBgMarkWorker"}},
	{0.01, []string{"sync.(*Mutex).Lock", "net/http.(*Transport).roundTrip", "github.com/hashicorp/go-retryablehttp.(*Client).Do"}},
}

// writeCPUProfile writes traces as a CPU profile, as runtime/pprof does:
// gzipped, samples of a count and of CPU nanoseconds. The first two
// functions of a sample share a location: the first was inlined into the
// second.
func writeCPUProfile(t *testing.T, file string, traces []Trace) {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
	}
	funcs := map[string]*profile.Function{}
	fn := func(name string) *profile.Function {
		if funcs[name] == nil {
			funcs[name] = &profile.Function{ID: uint64(len(funcs) + 1), Name: name, SystemName: name}
			p.Function = append(p.Function, funcs[name])
		}
		return funcs[name]
	}
	for _, tr := range traces {
		s := &profile.Sample{Value: []int64{int64(tr.Seconds * 100), int64(tr.Seconds * 1e9)}}
		frames := tr.Frames
		for len(frames) > 0 {
			loc := &profile.Location{ID: uint64(len(p.Location) + 1)}
			n := 1
			if len(frames) == len(tr.Frames) {
				n = min(2, len(frames))
			}
			for _, f := range frames[:n] {
				loc.Line = append(loc.Line, profile.Line{Function: fn(f)})
			}
			frames = frames[n:]
			p.Location = append(p.Location, loc)
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
}

// TestReadProfiles: the profiles of a step are read with pprof's reader and
// summed (an unflushed, empty profile counted apart); each sample keeps its
// functions innermost first, inlined ones included; the tops count each
// function's own and cumulative time, with the runtime's frames hidden or
// not; the components sum the samples three ways.
func TestReadProfiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeCPUProfile(t, filepath.Join(dir, "cpu-1.pprof"), profileTraces[:2])
	writeCPUProfile(t, filepath.Join(dir, "cpu-2.pprof"), profileTraces[2:])
	if err := os.WriteFile(filepath.Join(dir, "cpu-3.pprof"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	traces, err := readTraces(filepath.Join(dir, "cpu-1.pprof"))
	if err != nil || len(traces) != 2 || !slices.Equal(traces[0].Frames, profileTraces[0].Frames) ||
		!slices.Equal(traces[1].Frames, profileTraces[1].Frames) || !near(traces[0].Seconds, 0.02) {
		t.Fatalf("readTraces = %+v, %v", traces, err)
	}
	prof, err := readProfiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if prof.Files != 2 || prof.Unreadable != 1 || !near(prof.Samples, 0.07) {
		t.Errorf("files %d, unreadable %d, samples %v s", prof.Files, prof.Unreadable, prof.Samples)
	}
	wantTop := []ProfileFunc{{"runtime.gcBgMarkWorker", 0.03, 0.03}, {"runtime.mallocgc", 0.02, 0.02},
		{"crypto/internal/fips140/nistec/fiat.p521Mul", 0.01, 0.01}, {"sync.(*Mutex).Lock", 0.01, 0.01}}
	if len(prof.Top) != ProfileTopN || !topStartsWith(prof.Top, wantTop) {
		t.Errorf("top = %+v", prof.Top)
	}
	// With the runtime hidden, mallocgc's time is tftypes.NewValue's, and
	// the collector's worker is gone.
	wantOutside := []ProfileFunc{{"github.com/hashicorp/terraform-plugin-go/tftypes.NewValue", 0.02, 0.02},
		{"crypto/internal/fips140/nistec/fiat.p521Mul", 0.01, 0.01}, {"sync.(*Mutex).Lock", 0.01, 0.01}}
	if !topStartsWith(prof.TopOutsideRuntime, wantOutside) ||
		slices.ContainsFunc(prof.TopOutsideRuntime, func(f ProfileFunc) bool { return strings.HasPrefix(f.Name, "runtime.") }) {
		t.Errorf("top outside the runtime = %+v", prof.TopOutsideRuntime)
	}
	for _, f := range prof.Top {
		if f.Name == "github.com/hashicorp/terraform-plugin-framework/internal/fwserver.(*Server).CreateResource" && !near(f.Cum, 0.02) {
			t.Errorf("a function twice on one stack counts once: %+v", f)
		}
	}
	if _, err := readProfiles(t.TempDir()); err == nil {
		t.Error("no error without a profile")
	}

	got := map[string]ProfileComponent{}
	for _, c := range prof.Components {
		got[c.Name] = c
	}
	// own, charged to, on the stack
	for name, want := range map[string][3]float64{
		"Go runtime (GC, scheduler, allocation)":           {0.05, 0.03, 0.05},
		"terraform-plugin-go (protocol, tftypes, msgpack)": {0, 0.02, 0.02},
		"gRPC, protobuf, go-plugin":                        {0, 0.01, 0.03},
		"HTTP client (net/http, go-retryablehttp)":         {0, 0.01, 0.01},
		"crypto and TLS (go-plugin's AutoMTLS)":            {0.01, 0, 0.01},
		"other standard library":                           {0.01, 0, 0.01},
		"the provider's own code (this repository)":        {0, 0, 0.03},
		"terraform-plugin-framework":                       {0, 0, 0.02},
	} {
		c, ok := got[name]
		if !ok || !near(c.Self, want[0]) || !near(c.Attributed, want[1]) || !near(c.Stack, want[2]) {
			t.Errorf("component %q = %+v (present %t), want own %v, charged %v, on the stack %v", name, c, ok, want[0], want[1], want[2])
		}
	}
	var order []string
	for _, c := range prof.Components {
		order = append(order, c.Name)
	}
	want := []string{
		"Go runtime (GC, scheduler, allocation)", "terraform-plugin-go (protocol, tftypes, msgpack)", "gRPC, protobuf, go-plugin",
		"HTTP client (net/http, go-retryablehttp)", "crypto and TLS (go-plugin's AutoMTLS)", "other standard library",
		"the provider's own code (this repository)", "terraform-plugin-framework",
	}
	if !slices.Equal(order, want) {
		t.Errorf("components in the order\n%q\nwant\n%q", order, want)
	}
}

// topStartsWith reports whether top begins with want (times to the
// nanosecond).
func topStartsWith(top, want []ProfileFunc) bool {
	if len(top) < len(want) {
		return false
	}
	for i, w := range want {
		if top[i].Name != w.Name || !near(top[i].Flat, w.Flat) || !near(top[i].Cum, w.Cum) {
			return false
		}
	}
	return true
}

func TestComponentOf(t *testing.T) {
	t.Parallel()
	for fn, want := range map[string]string{
		"github.com/analytics-tf/terraform-provider-analytics/internal/client.(*BulkReader).Read": "the provider's own code (this repository)",
		"main.main": "the provider's own code (this repository)",
		"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator.oneOfValidator.ValidateString": "terraform-plugin-framework",
		"github.com/vmihailenco/msgpack/v5.(*Decoder).DecodeMap":                                                   "terraform-plugin-go (protocol, tftypes, msgpack)",
		"github.com/hashicorp/go-hclog.(*intLogger).log":                                                           "logging (terraform-plugin-log, go-hclog)",
		"golang.org/x/net/http2.(*Framer).ReadFrame":                                                               "gRPC, protobuf, go-plugin",
		"runtime/pprof.(*profileBuilder).addCPUData":                                                               "the profiler itself (runtime/pprof)",
		"internal/runtime/atomic.(*Uint32).CompareAndSwap":                                                         "Go runtime (GC, scheduler, allocation)",
		"syscall.Syscall6":                    "system calls and I/O",
		"encoding/json.(*decodeState).object": "encoding/json",
		"reflect.Value.Field":                 "other standard library",
		"slices.SortFunc[go.shape.[]string]":  "other standard library",
		"github.com/google/uuid.New":          "other",
	} {
		if got := componentOf(fn); got != want {
			t.Errorf("componentOf(%q) = %q, want %q", fn, got, want)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestComponentOfGenerics(t *testing.T) {
	t.Parallel()
	if !isStd("internal/poll.(*FD).Read") || isStd("main.main") || isStd("github.com/x/y.F") || !isStd("fmt.Sprintf") {
		t.Error("isStd")
	}
	if got := attributedTo([]string{"runtime.mallocgc", "fmt.Sprintf", "main.main"}); got != "the provider's own code (this repository)" {
		t.Errorf("attributedTo = %q", got)
	}
	if got := attributedTo([]string{"syscall.Syscall6", "net/http.(*persistConn).readLoop"}); got != "system calls and I/O" {
		t.Errorf("attributedTo(standard library only) = %q", got)
	}
	if got := componentOf("slices.SortFunc[go.shape.*github.com/x/y.T]"); got != componentStd {
		t.Errorf("componentOf(a generic of the standard library) = %q", got)
	}
	if got := componentOf("vendor/golang.org/x/net/http2/hpack.(*Decoder).Write"); got != componentStd {
		t.Errorf("componentOf(vendored) = %q", got)
	}
}
