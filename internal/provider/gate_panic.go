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

// panicError is the error a call answers with when it panics. An error,
// not a diagnostic: Terraform then keeps the resource's prior state (an
// apply that answered an error diagnostic and no new state would drop the
// object from the state), as it does when the provider crashes.
func panicError(v any) error { return errors.New(panicText(v)) }

// panicDiagnostic is the diagnostic a stream ends with when it panics.
func panicDiagnostic(v any) *tfprotov6.Diagnostic {
	return &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Provider Panicked", Detail: panicText(v)}
}

// recoverStream recovers a panic of a stream's own code (not one of the
// consumer's yield, which inYield marks: the stream must not yield after
// it) and ends the stream with final.
func recoverStream(inYield *bool, final func(*tfprotov6.Diagnostic)) {
	if *inYield {
		return
	}
	if v := recover(); v != nil {
		final(panicDiagnostic(v))
	}
}
