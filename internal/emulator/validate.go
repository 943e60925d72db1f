package emulator

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/analytics-tf/terraform-provider-analytics/internal/domainrule"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
)

// errorBag collects validation messages per field, in rule order.
type errorBag struct {
	fields []string
	msgs   map[string][]string
}

func (b *errorBag) add(field, msg string) {
	if b.msgs == nil {
		b.msgs = map[string][]string{}
	}
	if _, ok := b.msgs[field]; !ok {
		b.fields = append(b.fields, field)
	}
	b.msgs[field] = append(b.msgs[field], msg)
}

func (b *errorBag) empty() bool { return len(b.fields) == 0 }

// object renders the bag as the application's 422 "message" object.
func (b *errorBag) object() object {
	o := make(object, 0, len(b.fields))
	for _, f := range b.fields {
		o = append(o, member{f, b.msgs[f]})
	}
	return o
}

// rule is one Laravel validation rule. check returns the failure message.
type rule struct {
	implicit bool // required, required_if: run even on absent or empty values
	check    func(v any) (msg string, ok bool)
}

// fieldSpec is the rule list of one field.
type fieldSpec struct {
	name      string
	nullable  bool
	sometimes bool
	rules     []rule
}

// validate runs specs over in the way Laravel's Validator does: every rule of
// every field, skipping non-implicit rules for absent, blank or (nullable)
// null values, and stopping a field after a failed implicit rule.
func validate(in *input, specs []fieldSpec) *errorBag {
	bag := &errorBag{}
	for _, spec := range specs {
		present := in.has(spec.name)
		v := in.get(spec.name)
		if spec.sometimes && !present {
			continue
		}
		for _, r := range spec.rules {
			if !r.implicit {
				if !present {
					continue
				}
				if s, ok := v.(string); ok && phpTrim(s) == "" {
					continue
				}
				if spec.nullable && v == nil {
					continue
				}
			}
			if msg, ok := r.check(v); !ok {
				bag.add(spec.name, msg)
				if r.implicit {
					break
				}
			}
		}
	}
	return bag
}

// ruled is a store's or update's input as the controller that stores it
// reads it: only the fields its rules validate. Reading any other field
// panics with a noRuleError, which the emulator answers with a 500 naming
// the field, so that a column added to the store or the update without the
// application's rules for it fails every test that sends it.
type ruled struct {
	in    *input
	names map[string]bool
	rules string // the rules' function, for the message
}

func ruledInput(in *input, specs []fieldSpec, rules string) ruled {
	names := make(map[string]bool, len(specs))
	for _, s := range specs {
		names[s.name] = true
	}
	return ruled{in: in, names: names, rules: rules}
}

func (r ruled) check(field string) {
	if !r.names[field] {
		panic(noRuleError{field: field, rules: r.rules})
	}
}

// has is the input's has, for a field with rules.
func (r ruled) has(field string) bool { r.check(field); return r.in.has(field) }

// get is the input's get, for a field with rules.
func (r ruled) get(field string) any { r.check(field); return r.in.get(field) }

// noRuleError is the emulator's own bug: a field read without a rule.
type noRuleError struct{ field, rules string }

func (e noRuleError) Error() string {
	return fmt.Sprintf("emulator: the form field %q is read without a validation rule: add the application's rules "+
		"for it to %s (internal/emulator/validate.go)", e.field, e.rules)
}

// attr is Laravel's displayable attribute name.
func attr(field string) string { return strings.ReplaceAll(field, "_", " ") }

func isBlank(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return phpTrim(x) == ""
	default:
		return false
	}
}

func ruleRequired(field string) rule {
	return rule{implicit: true, check: func(v any) (string, bool) {
		return fmt.Sprintf("The %s field is required.", attr(field)), !isBlank(v)
	}}
}

// ruleRequiredWhen is Rule::requiredIf(condition), decided by the caller:
// "required" when it applies, with required's message (not required_if's
// "… when privacy is 2.").
func ruleRequiredWhen(field string, applies bool) rule {
	return rule{implicit: true, check: func(v any) (string, bool) {
		return fmt.Sprintf("The %s field is required.", attr(field)), !applies || !isBlank(v)
	}}
}

func ruleInteger(field string) rule {
	return rule{check: func(v any) (string, bool) {
		_, ok := filterInt(v)
		return fmt.Sprintf("The %s field must be an integer.", attr(field)), ok
	}}
}

func ruleString(field string) rule {
	return rule{check: func(v any) (string, bool) {
		_, ok := v.(string)
		return fmt.Sprintf("The %s field must be a string.", attr(field)), ok
	}}
}

// size is Laravel's getSize: the number itself for a numeric value of an
// attribute with a numeric rule, else the length of the string.
func size(v any, numericRule bool) float64 {
	if numericRule {
		if f, ok := phpNumeric(v); ok {
			return f
		}
	}
	if _, ok := v.(phpArray); ok {
		return 1
	}
	s, _ := phpString(v)
	return float64(utf8.RuneCountInString(s))
}

// ruleBetween is between:min,max on an integer field.
func ruleBetween(field string, lo, hi int) rule { //nolint:unparam // mirrors Laravel's between:min,max rule; both bounds are part of its message
	return rule{check: func(v any) (string, bool) {
		n := size(v, true)
		return fmt.Sprintf("The %s field must be between %d and %d.", attr(field), lo, hi),
			n >= float64(lo) && n <= float64(hi)
	}}
}

func ruleMinString(field string, lo int) rule {
	return rule{check: func(v any) (string, bool) {
		return fmt.Sprintf("The %s field must be at least %d characters.", attr(field), lo),
			size(v, false) >= float64(lo)
	}}
}

func ruleMaxString(field string, hi int) rule {
	return rule{check: func(v any) (string, bool) {
		return fmt.Sprintf("The %s field must not be greater than %d characters.", attr(field), hi),
			size(v, false) <= float64(hi)
	}}
}

// custom is a non-implicit rule with a fixed message.
func custom(msg string, ok func(s string) bool) rule {
	return rule{check: func(v any) (string, bool) {
		s, _ := phpString(v)
		return msg, ok(s)
	}}
}

// storeRules are the rules of the store request. taken and limitReached are
// evaluated by the caller under the state lock.
func (e *Emulator) storeRules(in *input, taken func(string) bool, limitReached bool) []fieldSpec {
	privacy := in.get("privacy")
	p, numeric := phpNumeric(privacy)
	privacyIs2 := numeric && p == 2
	return []fieldSpec{
		{name: "domain", rules: []rule{
			ruleRequired("domain"),
			ruleMaxString("domain", 255),
			custom("Invalid domain name.", domainrule.Valid),
			custom("The domain contains a banned word.", func(s string) bool { return !e.banned(s) }),
			custom("The domain has already been taken.", func(s string) bool { return !taken(s) }),
			custom("You created too many websites.", func(string) bool { return !limitReached }),
		}},
		{name: "privacy", nullable: true, rules: []rule{ruleInteger("privacy"), ruleBetween("privacy", 0, 2)}},
		{name: "password", nullable: true, rules: []rule{
			ruleRequiredWhen("password", privacyIs2),
			ruleString("password"), ruleMinString("password", 1), ruleMaxString("password", 128),
		}},
		{name: "email", nullable: true, rules: []rule{ruleInteger("email")}},
		{name: "exclude_bots", nullable: true, rules: []rule{ruleInteger("exclude_bots"), ruleBetween("exclude_bots", 0, 1)}},
		{name: "exclude_params", nullable: true, rules: []rule{ruleString("exclude_params")}},
		{name: "exclude_ips", nullable: true, rules: []rule{ruleString("exclude_ips")}},
	}
}

// updateRules are the rules of the update request. The password is
// nullable when privacy is loosely 0 or 1 (PHP's in_array($privacy, [0, 1]),
// which an absent or empty privacy, null == 0, passes too); otherwise it is
// checked only when sent, without required: an empty one fails string and
// min, a blank one passes and is stored.
func updateRules(in *input) []fieldSpec {
	privacyPublic := true
	switch v := in.get("privacy").(type) {
	case nil, bool: // null == 0, false == 0, true == 1
	default:
		f, ok := phpNumeric(v)
		privacyPublic = ok && (f == 0 || f == 1)
	}
	password := fieldSpec{name: "password", rules: []rule{
		ruleString("password"), ruleMinString("password", 1), ruleMaxString("password", 128),
	}}
	if privacyPublic {
		password.nullable = true
	} else {
		password.sometimes = true
	}
	return []fieldSpec{
		{name: "privacy", sometimes: true, rules: []rule{
			ruleRequired("privacy"), ruleInteger("privacy"), ruleBetween("privacy", 0, 2),
		}},
		password,
		{name: "email", nullable: true, rules: []rule{ruleInteger("email")}},
		{name: "exclude_bots", sometimes: true, rules: []rule{ruleInteger("exclude_bots"), ruleBetween("exclude_bots", 0, 1)}},
		{name: "exclude_params", nullable: true, rules: []rule{ruleString("exclude_params")}},
		{name: "exclude_ips", nullable: true, rules: []rule{ruleString("exclude_ips")}},
	}
}

// banned reports whether d contains one of the banned words.
func (e *Emulator) banned(d string) bool {
	d = strings.ToLower(d)
	for _, w := range e.opts.BannedWords {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" && strings.Contains(d, w) {
			return true
		}
	}
	return false
}

// phpTrim trims PHP's default trim() characters.
func phpTrim(s string) string { return strings.Trim(s, laravel.PHPTrimChars) }
