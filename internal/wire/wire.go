// Package wire declares a website's settings columns once, as data: their
// names in forms, records and 422 answers, how the database holds them,
// what NULL means, the application's validation rules and whether a record
// returns them. The client's decoding, form and adoption check, the
// emulator's storage, rules, store, update and record, and the tests'
// fixtures are derived from Columns; nothing else lists the columns.
//
// The id, the domain (the website's identity: required, canonicalised,
// stored once), favorites and timestamps are not settings: their code is
// written by hand where it is used.
package wire

import (
	"fmt"
	"reflect"
	"strings"
)

// Kind is how a column travels and is stored.
type Kind int

const (
	// Integer is a loose integer: sent as a number, a numeric string, a
	// boolean or empty; stored as *int (nil for NULL) in the range of
	// Column.DB; echoed as sent by store and update answers, read back as
	// a number on show and list.
	Integer Kind = iota
	// Text is a string, "" for NULL (the application stores "" as NULL).
	Text
	// Lines is a list sent as one string, one entry per line; stored and
	// returned as that string.
	Lines
	// Secret is a string the record never shows: it returns only whether
	// one is set, as a boolean (PHP's truthiness of the stored string).
	Secret
)

// DB is the database type of an Integer column, which bounds what it holds
// (a value outside it passes the rules and fails the insert: a 500).
type DB int

const (
	Int     DB = iota // INT
	TinyInt           // TINYINT: -128..127
)

// Range is the smallest and largest value the column holds.
func (d DB) Range() (lo, hi int64) {
	if d == TinyInt {
		return -128, 127
	}
	return -1 << 31, 1<<31 - 1
}

// Column is one settings column of a website.
type Column struct {
	// Name is the API's name in forms, records and 422 answers, and the
	// column's json tag in Settings.
	Name string
	Kind Kind
	DB   DB // Integer only
	// Null is the value the application reads NULL as (Integer only: a
	// NULL privacy shows as public, 0).
	Null int
	// Default is what a store that leaves the column out stores (nil: NULL).
	Default any
	// StoreRules and UpdateRules are the application's rules, in Laravel's
	// syntax ("nullable|integer|between:0,1"); UpdateRules "" means an
	// update does not read the column. Besides Laravel's rules the emulator
	// knows the hooks of the rules that depend on another field
	// (required_if_private, nullable_if_public).
	StoreRules, UpdateRules string
	// ValidatedAfter names the column whose rules the application checks
	// just before this one's; "" keeps the order of Columns.
	ValidatedAfter string
	// Returned is whether a record shows the column (a Secret as whether
	// one is set).
	Returned bool
	// Sample is a value the application accepts, as stored (an int or a
	// string), for the fixtures that fill every column.
	Sample any
}

// Columns are a website's settings columns, in the order of a record.
var Columns = []Column{
	{Name: "privacy", Kind: Integer, Null: 0, Returned: true, Sample: 2,
		StoreRules: "nullable|integer|between:0,2", UpdateRules: "sometimes|required|integer|between:0,2"},
	{Name: "email", Kind: Integer, DB: TinyInt, Null: 0, Returned: true, Sample: 1,
		StoreRules: "nullable|integer", UpdateRules: "nullable|integer"},
	{Name: "password", Kind: Secret, Returned: true, Sample: "from-the-ui", ValidatedAfter: "privacy",
		StoreRules:  "nullable|required_if_private|string|min:1|max:128",
		UpdateRules: "nullable_if_public|string|min:1|max:128"},
	{Name: "exclude_bots", Kind: Integer, Null: 0, Default: 1, Returned: true, Sample: 0,
		StoreRules: "nullable|integer|between:0,1", UpdateRules: "sometimes|integer|between:0,1"},
	{Name: "exclude_params", Kind: Lines, Sample: "utm_source\nfbclid",
		StoreRules: "nullable|string", UpdateRules: "nullable|string"},
	{Name: "exclude_ips", Kind: Lines, Returned: true, Sample: "10.0.0.1\r\n10.0.0.0/8\r\n",
		StoreRules: "nullable|string", UpdateRules: "nullable|string"},
}

// Settings are a website's settings columns as the database holds them,
// each field tagged with its column's name: an Integer as *int (nil for
// NULL), any other kind as a string ("" for NULL).
type Settings struct {
	Privacy       *int   `json:"privacy"`
	Email         *int   `json:"email"`
	ExcludeBots   *int   `json:"exclude_bots"`
	Password      string `json:"password"`
	ExcludeParams string `json:"exclude_params"`
	ExcludeIPs    string `json:"exclude_ips"`
}

// ValidationOrder is Columns in the order the application validates them.
var ValidationOrder []Column

// Get returns the column of Settings named name.
func (s *Settings) Get(name string) reflect.Value {
	return reflect.ValueOf(s).Elem().FieldByIndex(settingsField[name])
}

// Clone returns a copy of s that shares no pointer with it.
func Clone(s Settings) Settings {
	v := reflect.ValueOf(&s).Elem()
	for _, i := range intFields {
		if pp, _ := v.Field(i).Addr().Interface().(**int); *pp != nil {
			n := **pp
			*pp = &n
		}
	}
	return s
}

// Sample is Settings with every column's sample value.
func Sample() Settings {
	var s Settings
	for _, c := range Columns {
		v := reflect.ValueOf(c.Sample)
		f := s.Get(c.Name)
		if f.Kind() == reflect.Pointer {
			p := reflect.New(f.Type().Elem())
			p.Elem().Set(v)
			v = p
		}
		f.Set(v)
	}
	return s
}

// ByName returns the column named name.
func ByName(name string) (Column, bool) {
	for _, c := range Columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// Fields maps each column's name to the field of the struct type t tagged
// with it (tag "wire" or, for Settings, "json"); init-time checks of the
// client's types use it.
func Fields(t reflect.Type, tag string) map[string][]int {
	out := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get(tag), ",")
		if _, ok := ByName(name); ok && !f.Anonymous {
			out[name] = f.Index
		}
	}
	return out
}

var (
	settingsField = Fields(reflect.TypeFor[Settings](), "json")
	intFields     []int // the indexes of Settings' *int fields, which Clone copies
)

func init() {
	st := reflect.TypeFor[Settings]()
	if len(settingsField) != st.NumField() || len(settingsField) != len(Columns) {
		panic(fmt.Sprintf("wire: Settings has %d fields for %d columns: each column needs one field, tagged json:\"<name>\"",
			st.NumField(), len(Columns)))
	}
	for _, c := range Columns {
		f := st.FieldByIndex(settingsField[c.Name])
		want := reflect.TypeFor[string]()
		if c.Kind == Integer {
			want = reflect.TypeFor[*int]()
		}
		if c.Kind == Integer {
			intFields = append(intFields, f.Index[0])
		}
		if f.Type != want {
			panic(fmt.Sprintf("wire: Settings.%s (column %s) is a %s; a column of its kind is stored as a %s", f.Name, c.Name, f.Type, want))
		}
		v := reflect.ValueOf(c.Sample)
		sampleOK := v.IsValid() && (v.Type().AssignableTo(want) || c.Kind == Integer && v.Kind() == reflect.Int)
		if !sampleOK {
			panic(fmt.Sprintf("wire: column %s: Sample %#v is not a %s", c.Name, c.Sample, want))
		}
	}
	ValidationOrder = validationOrder(Columns)
}

// validationOrder moves each column with ValidatedAfter right after the
// column it names.
func validationOrder(cols []Column) []Column {
	var out []Column
	for _, c := range cols {
		if c.ValidatedAfter == "" {
			out = append(out, c)
		}
	}
	for _, c := range cols {
		if c.ValidatedAfter == "" {
			continue
		}
		i := -1
		for j, o := range out {
			if o.Name == c.ValidatedAfter {
				i = j
			}
		}
		if i < 0 {
			panic(fmt.Sprintf("wire: column %s is validated after %q, which is no column", c.Name, c.ValidatedAfter))
		}
		out = append(out[:i+1], append([]Column{c}, out[i+1:]...)...)
	}
	return out
}
