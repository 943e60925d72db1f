package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// panickingServer panics, quoting leak, in the calls named; its streams
// panic after their first item.
type panickingServer struct {
	fakeServer
}

func (p *panickingServer) ReadResource(context.Context, *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	panic("reading failed for " + p.leak)
}

func (p *panickingServer) CallFunction(context.Context, *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	panic(fmt.Errorf("function failed for %s", p.leak))
}

func (p *panickingServer) ListResource(context.Context, *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	return &tfprotov6.ListResourceServerStream{Results: func(yield func(tfprotov6.ListResourceResult) bool) {
		if yield(tfprotov6.ListResourceResult{DisplayName: "first"}) {
			panic("listing failed for " + p.leak)
		}
	}}, nil
}

func (p *panickingServer) InvokeAction(context.Context, *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	return &tfprotov6.InvokeActionServerStream{Events: func(yield func(tfprotov6.InvokeActionEvent) bool) {
		if yield(tfprotov6.InvokeActionEvent{Type: tfprotov6.ProgressInvokeActionEventType{Message: "started"}}) {
			panic("export failed for " + p.leak)
		}
	}}, nil
}

// TestGate_panics: a panic in a call (or in a stream it answers with)
// whose value quotes a secret does not end the process with the secret in
// its crash report (the Go runtime writes a crash past every gate, and
// Terraform shows it): the gate answers with an error that says the
// provider failed, the secret taken out.
func TestGate_panics(t *testing.T) {
	t.Parallel()
	const secret = `panic-secret/+="\<&?# Vb6Qw2Xe`
	redact.Add(secret)
	for _, name := range []string{"ReadResource", "CallFunction", "ListResource", "InvokeAction"} {
		t.Run(name, func(t *testing.T) {
			g := newGate(&panickingServer{fakeServer{leak: secret}})
			var texts []string
			func() {
				defer func() {
					if v := recover(); v != nil {
						t.Errorf("the panic passed the gate: %v", v)
					}
				}()
				m := reflect.ValueOf(g).MethodByName(name)
				out := m.Call([]reflect.Value{reflect.ValueOf(context.Background()), reflect.New(m.Type().In(1).Elem())})
				collectStrings(out[0], &texts)
				if err, _ := out[1].Interface().(error); err != nil {
					texts = append(texts, err.Error())
				}
			}()
			all := strings.Join(texts, "\n")
			if strings.Contains(all, "Vb6Qw2Xe") {
				t.Errorf("the answer holds the secret:\n%s", all)
			}
			if !strings.Contains(all, "failed for "+redact.Placeholder) {
				t.Errorf("the answer does not report the panic:\n%s", all)
			}
			// As after a crash, nothing more is done with what the panic
			// may have left half changed (a lock held, say): every later
			// call answers the panic's error.
			resp, err := g.GetMetadata(context.Background(), &tfprotov6.GetMetadataRequest{})
			if err == nil || resp != nil || !strings.Contains(err.Error(), "failed for "+redact.Placeholder) {
				t.Errorf("a call after the panic: %v, %v", resp, err)
			}
		})
	}
}
