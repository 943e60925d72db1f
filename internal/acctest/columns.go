package acctest

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/analytics-tf/terraform-provider-analytics/internal/client"
	"github.com/analytics-tf/terraform-provider-analytics/internal/emulator"
)

// ChangedColumns names the fields of emulator.Website that differ between
// was and now, but those ignored: every difference, a list's order included.
func ChangedColumns(was, now emulator.Website, ignored ...string) []string {
	return columnDiffs(was, now, ignored, func(_ reflect.StructField, _, _ reflect.Value, msg string) (string, bool) {
		return msg, true
	})
}

// LostColumns names what now, a website after Terraform changed it, lost of
// was: the fields that differ, but those ignored and a list the client sends
// as a Terraform set (a []string field of client.WebsiteInput, named as the
// column) that holds the same entries in another order. An update re-sends a
// set sorted, one entry per line, so neither the order nor the line breaks
// the web interface stored are kept, and a set's order means nothing. A
// column that is not sent as a set and comes back with its entries reordered
// is lost data: the message says which edit it needs.
func LostColumns(was, now emulator.Website, ignored ...string) []string {
	return columnDiffs(was, now, ignored, func(f reflect.StructField, a, b reflect.Value, msg string) (string, bool) {
		if f.Type.Kind() != reflect.String || f.Name == "Password" {
			return msg, true
		}
		sep, ok := sameEntries(a.String(), b.String())
		switch {
		case !ok:
			return msg, true
		case sentAsSet(f.Tag.Get("json")):
			return "", false
		}
		return msg + fmt.Sprintf(": the same entries (split at %q), rewritten or in another order. If their order "+
			"means nothing to the application, the attribute is a Set and client.WebsiteInput.%[2]s "+
			"(internal/client/website.go) a []string, as ExcludeIPs (a *[]string for an attribute added since 0.1.0, "+
			"left out while unknown): then this comparison takes a reordering as no "+
			"loss. If the order means something, the attribute must be a List: a Set is re-sent sorted "+
			"(CONTRIBUTING.md, \"Adding an attribute\")", sep, f.Name), true
	})
}

// columnDiffs walks the fields of emulator.Website that differ between was
// and now, but those ignored, and keeps the message judge returns for each
// it counts.
func columnDiffs(was, now emulator.Website, ignored []string,
	judge func(f reflect.StructField, was, now reflect.Value, msg string) (string, bool),
) []string {
	var out []string
	a, b := reflect.ValueOf(was), reflect.ValueOf(now)
	for _, f := range reflect.VisibleFields(a.Type()) {
		fa, fb := a.FieldByIndex(f.Index), b.FieldByIndex(f.Index)
		if f.Anonymous || slices.Contains(ignored, f.Name) || reflect.DeepEqual(fa.Interface(), fb.Interface()) {
			continue
		}
		if msg, counts := judge(f, fa, fb, changedColumn(f.Name, fa, fb)); counts {
			out = append(out, msg)
		}
	}
	return out
}

func changedColumn(name string, was, now reflect.Value) string {
	if name == "Password" { // never printed
		return "Password (changed)"
	}
	return fmt.Sprintf("%s %s (was %s)", name, Shown(now), Shown(was))
}

// Shown is a column's value as a message shows it: NULL, or what a pointer
// points to.
func Shown(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "NULL"
		}
		v = v.Elem()
	}
	return fmt.Sprintf("%#v", v.Interface())
}

// sentAsSet reports whether the client sends the column name as a list of
// entries: a []string field of client.WebsiteInput, or a *[]string (a set
// left out while its plan value is unknown).
func sentAsSet(name string) bool {
	idx, ok := inputField[name]
	if !ok {
		return false
	}
	t := reflect.TypeFor[client.WebsiteInput]().FieldByIndex(idx).Type
	return t == reflect.TypeFor[[]string]() || t == reflect.TypeFor[*[]string]()
}

// listSeparators are the separators sameEntries tries, in order: line
// breaks (the form's, client.SplitLines), then the usual ones of a stored
// list.
var listSeparators = []string{"\n", ",", ";", " "}

// sameEntries reports whether was and now, split at one separator (entries
// trimmed, empty ones dropped), hold the same entries, in any order; and at
// which.
func sameEntries(was, now string) (string, bool) {
	for _, sep := range listSeparators {
		a, b := entries(was, sep), entries(now, sep)
		slices.Sort(a)
		slices.Sort(b)
		if len(a) > 0 && slices.Equal(a, b) {
			return sep, true
		}
	}
	return "", false
}

func entries(s, sep string) []string {
	var out []string
	for _, e := range strings.Split(s, sep) {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// PlanChanges are the attributes that a plan's output shows changing
// ("~ name = a -> b", "- name = a -> null", "+ name = b"), but those only
// the server computes ("-> (known after apply)": updated_at).
func PlanChanges(out string) []string {
	var names []string
	for _, m := range planChangeLine.FindAllStringSubmatch(out, -1) {
		if !strings.HasSuffix(m[0], "(known after apply)") && !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
	}
	slices.Sort(names)
	return names
}

var planChangeLine = regexp.MustCompile(`(?m)^\s+[-+~] (\w+)\s+=.*$`)
