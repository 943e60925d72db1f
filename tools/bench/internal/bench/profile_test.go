package bench

import (
	"math"
	"slices"
	"testing"
)

const pprofTopOutput = `File: terraform-provider-analytics
Build ID: 0e8beb1920d5d488274525f654522f6f0d3b22f0
Type: cpu
Time: 2026-11-23 10:25:39 UTC
Duration: 14.03s, Total samples = 3.21s (22.88%)
Showing nodes accounting for 1.50s, 46.73% of 3.21s total
Dropped 301 nodes (cum <= 0.02s)
Showing top 3 nodes out of 412
      flat  flat%   sum%        cum   cum%
     0.50s 15.58% 15.58%      0.60s 18.69%  runtime.mallocgc
      10ms  0.31% 15.89%      1.20s 37.38%  github.com/hashicorp/terraform-plugin-framework/internal/fwserver.(*Server).PlanResourceChange
         0     0% 15.89%   1.50mins   100%  crypto/ecdsa.GenerateKey (inline)
`

func TestParsePprofTop(t *testing.T) {
	t.Parallel()
	total, funcs, err := ParsePprofTop(pprofTopOutput)
	if err != nil {
		t.Fatal(err)
	}
	if total != 3.21 {
		t.Errorf("total = %v, want 3.21", total)
	}
	want := []ProfileFunc{
		{"runtime.mallocgc", 0.5, 0.6},
		{"github.com/hashicorp/terraform-plugin-framework/internal/fwserver.(*Server).PlanResourceChange", 0.01, 1.2},
		{"crypto/ecdsa.GenerateKey (inline)", 0, 90},
	}
	if len(funcs) != len(want) {
		t.Fatalf("%d functions, want %d: %+v", len(funcs), len(want), funcs)
	}
	for i := range want {
		if funcs[i].Name != want[i].Name || !near(funcs[i].Flat, want[i].Flat) || !near(funcs[i].Cum, want[i].Cum) {
			t.Errorf("function %d = %+v, want %+v", i, funcs[i], want[i])
		}
	}
	if _, _, err := ParsePprofTop("File: x\nType: cpu\n"); err == nil {
		t.Error("no error without a total")
	}
	if _, _, err := ParsePprofTop("Duration: 1s, Total samples = 10ms (1%)\n"); err == nil {
		t.Error("no error without a table")
	}
	if _, _, err := ParsePprofTop("Total samples = 10ms\n      flat  flat%   sum%        cum   cum%\n 1xs 1% 1% 1s 1% f\n"); err == nil {
		t.Error("no error for a bad duration")
	}
}

func TestParsePprofDuration(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]float64{"0": 0, "10ms": 0.01, "1.23s": 1.23, "1.5mins": 90, "250us": 0.00025, "2hrs": 7200, "5ns": 5e-9} {
		got, err := parsePprofDuration(in)
		if err != nil || !near(got, want) {
			t.Errorf("parsePprofDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ms", "10 parsecs", "x1s"} {
		if _, err := parsePprofDuration(in); err == nil {
			t.Errorf("parsePprofDuration(%q): no error", in)
		}
	}
}

const pprofTracesOutput = `File: terraform-provider-analytics
Type: cpu
Time: 2026-11-23 10:25:39 UTC
Duration: 140.03ms, Total samples = 70ms (49.99%)
-----------+-------------------------------------------------------
      20ms   runtime.mallocgc
             github.com/hashicorp/terraform-plugin-go/tftypes.NewValue
             github.com/hashicorp/terraform-plugin-framework/internal/fwserver.(*Server).CreateResource
             github.com/analytics-tf/terraform-provider-analytics/internal/provider.(*websiteResource).Create
             github.com/hashicorp/terraform-plugin-framework/internal/fwserver.(*Server).CreateResource
             google.golang.org/grpc.(*Server).handleStream
-----------+-------------------------------------------------------
         bytes:512
      10ms   crypto/internal/fips140/nistec/fiat.p521Mul
             crypto/ecdsa.GenerateKey
             github.com/hashicorp/go-plugin.generateCert
             github.com/hashicorp/go-plugin.Serve
             main.main
-----------+-------------------------------------------------------
      30ms   runtime.gcBgMarkWorker
-----------+-------------------------------------------------------
      10ms   sync.(*Mutex).Lock
             net/http.(*Transport).roundTrip
             github.com/hashicorp/go-retryablehttp.(*Client).Do
-----------+-------------------------------------------------------
`

func TestParsePprofTraces(t *testing.T) {
	t.Parallel()
	traces := ParsePprofTraces(pprofTracesOutput)
	if len(traces) != 4 {
		t.Fatalf("%d traces, want 4: %+v", len(traces), traces)
	}
	if !near(traces[0].Seconds, 0.02) || len(traces[0].Frames) != 6 || traces[0].Frames[0] != "runtime.mallocgc" ||
		traces[0].Frames[5] != "google.golang.org/grpc.(*Server).handleStream" {
		t.Errorf("trace 0 = %+v", traces[0])
	}
	if traces[1].Frames[0] != "crypto/internal/fips140/nistec/fiat.p521Mul" || len(traces[1].Frames) != 5 {
		t.Errorf("trace 1 (after a label line) = %+v", traces[1])
	}
	if len(traces[2].Frames) != 1 || !near(traces[2].Seconds, 0.03) {
		t.Errorf("trace 2 = %+v", traces[2])
	}

	got := map[string]ProfileComponent{}
	comps := Components(traces)
	for _, c := range comps {
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
	for _, c := range comps {
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
