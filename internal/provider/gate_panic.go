package provider

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/analytics-tf/terraform-provider-analytics/internal/redact"
)

// panicText describes a panic of the provider (a bug), with every secret
// taken out of its value and its stack.
func panicText(v any) string {
	return redact.String(fmt.Sprintf("The provider panicked, which is a bug in the provider; please report it with "+
		"this message (its secrets are taken out). The operation did not finish: the state keeps what it held "+
		"before it. The panic: %v\n\n%s", v, debug.Stack()))
}

// panic is the error a call answers with when it panics, v its panic. An
// error, not a diagnostic: Terraform then keeps the resource's prior state
// (an apply that answered an error diagnostic and no new state would drop
// the object from the state), as it does when the provider crashes. As
// after a crash, nothing more is done with what the panic may have left
// half changed (a lock held, say): every later call answers the first
// panic's error.
func (g *gate) panic(v any) error {
	err := errors.New(panicText(v))
	g.panicked.CompareAndSwap(nil, &err)
	return err
}

// recoverStream recovers a panic of a stream's own code (not one of the
// consumer's yield, which inYield marks: the stream must not yield after
// it) and ends the stream with final, given the panic's error diagnostic.
func (g *gate) recoverStream(inYield *bool, final func(*tfprotov6.Diagnostic)) {
	if *inYield {
		return
	}
	if v := recover(); v != nil {
		final(&tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Provider Panicked",
			Detail: g.panic(v).Error()})
	}
}
