package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The fuzz targets of the website's timeouts block and of the export's
// from/to range (the provider's own timeout is FuzzDuration's).

// FuzzTimeouts: the website's timeouts block (create, read, update,
// delete), through the block's own validators (terraform-plugin-framework-
// timeouts) and the resource's (checkTimeouts). For any four values: no
// panic; every error is on the attribute refused (timeouts.<name>), and
// the provider's own names it; a value is refused exactly when it is not a
// positive duration (positiveDuration, the rule of every duration), once;
// an accepted value is what the resource then uses (Value.Create and the
// others): the same positive duration, whose printed form reads back the
// same (a canonical form).
func FuzzTimeouts(f *testing.F) {
	for _, c := range [][4]string{
		{"10m", "5m", "", ""}, {"0s", "-5m", "0", "-0s"}, {"1h30m", "90s", "1.5h", "300ms"}, {"abc", "", "10", "5 m"},
		{"9999999999h", "1µs", "1us", "+3m"}, {" 5m", "5m ", "", "5M"}, {"2562047h47m16.854775807s", "2562047h48m", "", ""},
	} {
		f.Add(c[0], c[1], c[2], c[3])
	}
	ctx := context.Background()
	block, ok := websiteResourceSchema(ctx).Blocks["timeouts"].(schema.SingleNestedBlock)
	if !ok {
		f.Fatalf("the timeouts block is a %T", websiteResourceSchema(ctx).Blocks["timeouts"])
	}
	typ, ok := block.Type().(timeouts.Type)
	if !ok {
		f.Fatalf("the timeouts block's type is a %T", block.Type())
	}
	f.Fuzz(func(t *testing.T, create, read, update, del string) {
		given := map[string]string{"create": create, "read": read, "update": update, "delete": del}
		values := map[string]attr.Value{}
		var diags diag.Diagnostics
		for _, name := range timeoutNames {
			if given[name] == "" {
				values[name] = types.StringNull()
				continue
			}
			values[name] = types.StringValue(given[name])
			a, ok := block.Attributes[name].(schema.StringAttribute)
			if !ok {
				t.Fatalf("timeouts.%s is a %T", name, block.Attributes[name])
			}
			at := path.Root("timeouts").AtName(name)
			for _, v := range a.Validators {
				d, _ := validateStringLogged(v, at, given[name])
				diags.Append(d...)
			}
		}
		tv := timeouts.Value{Object: types.ObjectValueMust(typ.AttrTypes, values)}
		checkTimeouts(tv, &diags)
		for _, name := range timeoutNames {
			v := given[name]
			if v == "" {
				continue
			}
			at := path.Root("timeouts").AtName(name)
			var errs []diag.Diagnostic
			for _, d := range diags {
				if wp, ok := d.(diag.DiagnosticWithPath); ok && wp.Path().Equal(at) {
					errs = append(errs, d)
				}
			}
			want, problem := positiveDuration(at, v)
			switch {
			case problem != "" && len(errs) != 1:
				t.Errorf("timeouts.%s = %q: %d errors, want one: %v", name, v, len(errs), errs)
			case problem == "" && len(errs) != 0:
				t.Errorf("timeouts.%s = %q is a positive duration, but refused: %v", name, v, errs)
			case problem == "":
				got, d := timeoutOf(ctx, tv, name)
				if d.HasError() || got != want {
					t.Errorf("timeouts.%s = %q: the resource uses %v (%v), want %v", name, v, got, d, want)
				}
				if again, err := time.ParseDuration(got.String()); err != nil || again != got {
					t.Errorf("timeouts.%s = %q: %v prints as %q, which reads as %v, %v", name, v, got, got.String(), again, err)
				}
			}
			for _, e := range errs {
				if e.Severity() != diag.SeverityError {
					t.Errorf("timeouts.%s = %q: a %s, not an error", name, v, e.Severity())
				}
				if e.Summary() == "Invalid Timeout" && !strings.Contains(e.Detail(), at.String()) {
					t.Errorf("timeouts.%s = %q: the message does not name %s: %s", name, v, at, e.Detail())
				}
			}
		}
		if len(diags) > len(diagsOn(diags, "timeouts")) {
			t.Errorf("errors on other attributes than timeouts: %v", diags)
		}
	})
}

// timeoutOf is the duration the resource uses for the operation name.
func timeoutOf(ctx context.Context, v timeouts.Value, name string) (time.Duration, diag.Diagnostics) {
	const unset = -time.Hour // a default no accepted value can equal
	switch name {
	case "create":
		return v.Create(ctx, unset)
	case "read":
		return v.Read(ctx, unset)
	case "update":
		return v.Update(ctx, unset)
	default:
		return v.Delete(ctx, unset)
	}
}

// diagsOn is the diagnostics whose path starts at the attribute root.
func diagsOn(diags diag.Diagnostics, root string) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range diags {
		if wp, ok := d.(diag.DiagnosticWithPath); ok && strings.HasPrefix(wp.Path().String(), root) {
			out = append(out, d)
		}
	}
	return out
}

// FuzzExportRange: from and to of the export action (dateValidator on each,
// dateRangeProblem on the two, exportRange for what is read). For any two
// values ("" stands for one left out): no panic; a refused date is an
// error on its attribute that names it; accepted dates print back to
// themselves (YYYY-MM-DD); two accepted dates are refused as a range
// exactly when from comes after to, in a message naming both; an accepted
// configuration reads a range that is never inverted, keeps the dates
// given, and is the whole history exactly when neither is given.
func FuzzExportRange(f *testing.F) {
	for _, c := range [][2]string{
		{"2025-01-01", "2025-01-31"}, {"2025-01-31", "2025-01-01"}, {"", ""}, {"2025-01-01", ""}, {"", "2025-01-01"},
		{"0500-01-01", ""}, {"", "0500-01-01"}, {"0001-01-01", "9999-12-31"}, {"2024-02-29", "2023-02-29"},
		{"2025-1-1", "2025-01-01T00:00:00Z"}, {" 2025-01-01", "+2025-01-01"}, {"2025-01-01", "2025-01-01"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, from, to string) {
		ok := true
		for _, a := range []struct{ name, v string }{{"from", from}, {"to", to}} {
			if a.v == "" {
				continue
			}
			at := path.Root(a.name)
			diags, _ := validateStringLogged(dateValidator(), at, a.v)
			checkRefusals(t, diags, at, a.v)
			if diags.HasError() {
				ok = false
				continue
			}
			if d, parsed := parseDate(a.v); !parsed || d.Format(time.DateOnly) != a.v {
				t.Errorf("%s = %q is accepted, but does not print back to itself: %v", a.name, a.v, d)
			}
		}
		if !ok {
			return
		}
		problem := dateRangeProblem(from, to)
		first, _ := parseDate(from)
		last, _ := parseDate(to)
		inverted := from != "" && to != "" && first.After(last)
		if inverted != (problem != "") {
			t.Fatalf("from = %q, to = %q: inverted %v, refused %q", from, to, inverted, problem)
		}
		if problem != "" {
			if !strings.Contains(problem, "from") || !strings.Contains(problem, "to") {
				t.Errorf("from = %q, to = %q: the refusal names neither: %s", from, to, problem)
			}
			return
		}
		rf, rt, whole := exportRange(from, to)
		if whole != (from == "" && to == "") {
			t.Errorf("from = %q, to = %q: whole = %v", from, to, whole)
		}
		if (from != "" && rf != from) || (to != "" && rt != to) {
			t.Errorf("from = %q, to = %q: the export reads %s to %s, not the dates given", from, to, rf, rt)
		}
		pf, okf := parseDate(rf)
		pt, okt := parseDate(rt)
		if !okf || !okt || pf.After(pt) {
			t.Errorf("from = %q, to = %q: accepted, but the export reads %s to %s, an empty range", from, to, rf, rt)
		}
	})
}
