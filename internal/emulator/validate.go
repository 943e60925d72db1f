package emulator

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/analytics-tf/terraform-provider-analytics/internal/domainrule"
	"github.com/analytics-tf/terraform-provider-analytics/internal/laravel"
	"github.com/analytics-tf/terraform-provider-analytics/internal/php"
	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
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
func ruleBetween(field string, lo, hi int) rule {
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

// storeRules are the rules of the store request: the domain's, then each
// column's (wire.Columns). taken and limitReached are evaluated by the
// caller under the state lock.
func (e *Emulator) storeRules(in *input, taken func(string) bool, limitReached bool) []fieldSpec {
	specs := []fieldSpec{{name: "domain", rules: []rule{
		ruleRequired("domain"),
		ruleMaxString("domain", 255),
		custom("Invalid domain name.", domainrule.Valid),
		custom("The domain contains a banned word.", func(s string) bool { return !e.banned(s) }),
		custom("The domain has already been taken.", func(s string) bool { return !taken(s) }),
		custom("You created too many websites.", func(string) bool { return !limitReached }),
	}}}
	h := hooksOf(in)
	for _, c := range wire.ValidationOrder {
		specs = append(specs, columnSpec(c.Name, c.StoreRules, h))
	}
	return specs
}

// updateRules are the rules of the update request, each column's
// (wire.Columns) that an update reads.
func updateRules(in *input) []fieldSpec {
	var specs []fieldSpec
	h := hooksOf(in)
	for _, c := range wire.ValidationOrder {
		if c.UpdateRules != "" {
			specs = append(specs, columnSpec(c.Name, c.UpdateRules, h))
		}
	}
	return specs
}

// ruleHooks are what the rules that depend on another field read of a
// request: whether privacy is 2 (a store's required_if_private) and
// whether it is loosely 0 or 1 (an update's nullable_if_public: PHP's
// in_array($privacy, [0, 1]), which an absent or empty privacy, null == 0,
// passes too).
type ruleHooks struct{ privacyIs2, privacyPublic bool }

func hooksOf(in *input) ruleHooks {
	privacy := in.get("privacy")
	p, numeric := phpNumeric(privacy)
	// Rule::requiredIf($this->input('privacy') == 2): PHP's loose ==, so a
	// JSON true is 2 too.
	h := ruleHooks{privacyIs2: php.LooseEqualsInt(privacy, 2), privacyPublic: true}
	switch privacy.(type) {
	case nil, bool: // null == 0, false == 0, true == 1
	default:
		h.privacyPublic = numeric && (p == 0 || p == 1)
	}
	return h
}

// columnSpec is the field spec of a column's rules, in Laravel's syntax,
// with the hooks decided for the request: required_if_private is "required"
// with required's message (not required_if's "… when privacy is 2.") when
// privacy is 2; nullable_if_public is nullable when privacy is public, else
// sometimes (checked only when sent, without required: an empty password
// fails string and min, a blank one passes and is stored).
func columnSpec(name, rules string, h ruleHooks) fieldSpec {
	spec := fieldSpec{name: name}
	for _, r := range strings.Split(rules, "|") {
		rn, arg, _ := strings.Cut(r, ":")
		num := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil {
				panic(fmt.Sprintf("emulator: column %s: rule %q: %v", name, r, err))
			}
			return n
		}
		switch rn {
		case "nullable":
			spec.nullable = true
		case "sometimes":
			spec.sometimes = true
		case "nullable_if_public":
			spec.nullable, spec.sometimes = h.privacyPublic, !h.privacyPublic
		case "required":
			spec.rules = append(spec.rules, ruleRequired(name))
		case "required_if_private":
			spec.rules = append(spec.rules, ruleRequiredWhen(name, h.privacyIs2))
		case "integer":
			spec.rules = append(spec.rules, ruleInteger(name))
		case "string":
			spec.rules = append(spec.rules, ruleString(name))
		case "between":
			lo, hi, _ := strings.Cut(arg, ",")
			spec.rules = append(spec.rules, ruleBetween(name, num(lo), num(hi)))
		case "min":
			spec.rules = append(spec.rules, ruleMinString(name, num(arg)))
		case "max":
			spec.rules = append(spec.rules, ruleMaxString(name, num(arg)))
		default:
			panic(fmt.Sprintf("emulator: column %s: no rule %q (internal/emulator/validate.go, columnSpec)", name, r))
		}
	}
	return spec
}

// Every column's rules parse: a rule the emulator does not know fails at
// start, not on the first request that reads it.
func init() {
	for _, c := range wire.Columns {
		columnSpec(c.Name, c.StoreRules, ruleHooks{})
		if c.UpdateRules != "" {
			columnSpec(c.Name, c.UpdateRules, ruleHooks{})
		}
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
