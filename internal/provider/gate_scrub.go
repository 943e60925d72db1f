package provider

import (
	"errors"
	"iter"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// scrub passes everything of a response that the CLI shows a user through
// the redactor: every diagnostic's summary and detail, every function
// error's text and, for the streamed answers, every result's diagnostics
// and display name and every progress message, as they stream. It walks
// the response by reflection, so a response type that gains diagnostics
// (or a new call that answers with them) is scrubbed without a change here;
// only the streams, whose values are produced later, are named.
func (g *gate) scrub(resp any) {
	switch r := resp.(type) {
	case *tfprotov6.ListResourceServerStream:
		if r != nil && r.Results != nil {
			r.Results = g.scrubbedResults(r.Results)
		}
		return
	case *tfprotov6.InvokeActionServerStream:
		if r != nil && r.Events != nil {
			r.Events = g.scrubbedEvents(r.Events)
		}
		return
	case *tfprotov6.StopProviderResponse:
		if r != nil {
			r.Error = redact.String(r.Error)
		}
		return
	}
	if resp != nil {
		walk(reflect.ValueOf(resp))
	}
}

func (g *gate) scrubbedResults(results iter.Seq[tfprotov6.ListResourceResult]) iter.Seq[tfprotov6.ListResourceResult] {
	return func(yield func(tfprotov6.ListResourceResult) bool) {
		inYield := false
		defer g.recoverStream(&inYield, func(d *tfprotov6.Diagnostic) {
			yield(tfprotov6.ListResourceResult{Diagnostics: []*tfprotov6.Diagnostic{d}})
		})
		for r := range results {
			r.DisplayName = redact.String(r.DisplayName)
			scrubDiagnostics(r.Diagnostics)
			inYield = true
			more := yield(r)
			inYield = false
			if !more {
				return
			}
		}
	}
}

func (g *gate) scrubbedEvents(events iter.Seq[tfprotov6.InvokeActionEvent]) iter.Seq[tfprotov6.InvokeActionEvent] {
	return func(yield func(tfprotov6.InvokeActionEvent) bool) {
		inYield := false
		defer g.recoverStream(&inYield, func(d *tfprotov6.Diagnostic) {
			yield(tfprotov6.InvokeActionEvent{Type: tfprotov6.CompletedInvokeActionEventType{Diagnostics: []*tfprotov6.Diagnostic{d}}})
		})
		for e := range events {
			switch t := e.Type.(type) {
			case tfprotov6.ProgressInvokeActionEventType:
				t.Message = redact.String(t.Message)
				e.Type = t
			case *tfprotov6.ProgressInvokeActionEventType:
				if t != nil {
					t.Message = redact.String(t.Message)
				}
			case tfprotov6.CompletedInvokeActionEventType:
				scrubDiagnostics(t.Diagnostics)
			case *tfprotov6.CompletedInvokeActionEventType:
				if t != nil {
					scrubDiagnostics(t.Diagnostics)
				}
			}
			inYield = true
			more := yield(e)
			inYield = false
			if !more {
				return
			}
		}
	}
}

func scrubDiagnostics(diags []*tfprotov6.Diagnostic) {
	for _, d := range diags {
		if d != nil {
			d.Summary = redact.String(d.Summary)
			d.Detail = redact.String(d.Detail)
		}
	}
}

// scrubError passes an error the server returns instead of an answer (the
// CLI prints it) through the redactor.
func scrubError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if r := redact.String(msg); r != msg {
		return errors.New(r)
	}
	return err
}

var (
	diagnosticType    = reflect.TypeFor[tfprotov6.Diagnostic]()
	functionErrorType = reflect.TypeFor[tfprotov6.FunctionError]()
)

// walk scrubs every Diagnostic and FunctionError reachable from v through
// pointers, structs, slices and maps; it skips types that cannot hold one.
func walk(v reflect.Value) {
	if !v.IsValid() || !holdsMessages(v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem())
		}
	case reflect.Struct:
		switch v.Type() {
		case diagnosticType, functionErrorType:
			if v.CanAddr() {
				scrubMessage(v.Addr().Interface())
			}
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walk(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walk(it.Value()) // pointers only: map values are not addressable
		}
	}
}

func scrubMessage(m any) {
	switch t := m.(type) {
	case *tfprotov6.Diagnostic:
		t.Summary = redact.String(t.Summary)
		t.Detail = redact.String(t.Detail)
	case *tfprotov6.FunctionError:
		t.Text = redact.String(t.Text)
	}
}

// holdsMessages reports whether a value of t can reach a Diagnostic or a
// FunctionError; interfaces are assumed to.
var holdsCache sync.Map // reflect.Type -> bool

func holdsMessages(t reflect.Type) bool {
	if v, ok := holdsCache.Load(t); ok {
		return v.(bool) //nolint:forcetypeassert // the cache holds only bools
	}
	held := reaches(t, map[reflect.Type]bool{})
	holdsCache.Store(t, held)
	return held
}

// reaches is holdsMessages without the cache; visiting holds the types
// being looked at, so that a type that refers to itself ends the search.
func reaches(t reflect.Type, visiting map[reflect.Type]bool) bool {
	if visiting[t] {
		return false
	}
	visiting[t] = true
	defer delete(visiting, t)
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return reaches(t.Elem(), visiting)
	case reflect.Struct:
		if t == diagnosticType || t == functionErrorType {
			return true
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && reaches(f.Type, visiting) {
				return true
			}
		}
	}
	return false
}
