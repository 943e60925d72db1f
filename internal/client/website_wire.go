package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/analytics-tf/terraform-provider-analytics/internal/wire"
)

// A website's settings columns are declared in wire.Columns. Website holds
// each one the record returns in the field tagged wire:"<name>", typed by
// its kind (recordType); WebsiteInput sends each one in the field tagged
// form:"<name>". The record's decoding, the form and the adoption check
// loop over the table; init panics naming a column without its field.

// recordType is the type of Website's field of a returned column's kind.
var recordType = map[wire.Kind]reflect.Type{
	wire.Integer: reflect.TypeFor[*int](),
	wire.Text:    reflect.TypeFor[string](),
	wire.Lines:   reflect.TypeFor[[]string](),
	wire.Secret:  reflect.TypeFor[bool](), // whether one is set
}

var (
	recordField = wire.Fields(reflect.TypeFor[Website](), "wire")
	inputField  = wire.Fields(reflect.TypeFor[WebsiteInput](), "form")
	// recordJSON is the JSON shape of a record, with the loose fields kept
	// raw: id, domain, each returned column (its field's index in
	// recordColumns' order: 2, 3, ...), favorite and the timestamps.
	recordJSON    reflect.Type
	recordColumns []wire.Column
)

func init() {
	fields := []reflect.StructField{
		{Name: "ID", Type: reflect.TypeFor[json.RawMessage](), Tag: `json:"id"`},
		{Name: "Domain", Type: reflect.TypeFor[string](), Tag: `json:"domain"`},
	}
	for i, c := range wire.Columns {
		if _, ok := inputField[c.Name]; !ok {
			panic(fmt.Sprintf("client: the column %s has no field in WebsiteInput tagged form:%q (internal/client/website.go)", c.Name, c.Name))
		}
		if !c.Returned {
			continue
		}
		idx, ok := recordField[c.Name]
		if want := recordType[c.Kind]; !ok || reflect.TypeFor[Website]().FieldByIndex(idx).Type != want {
			panic(fmt.Sprintf("client: the column %s has no field of type %s in Website tagged wire:%q (internal/client/website.go)",
				c.Name, want, c.Name))
		}
		t := reflect.TypeFor[json.RawMessage]()
		if c.Kind == wire.Text || c.Kind == wire.Lines {
			t = reflect.TypeFor[*string]()
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: t, Tag: reflect.StructTag(fmt.Sprintf("json:%q", c.Name))})
		recordColumns = append(recordColumns, c)
	}
	recordJSON = reflect.StructOf(append(fields,
		reflect.StructField{Name: "Favorite", Type: reflect.TypeFor[json.RawMessage](), Tag: `json:"favorite"`},
		reflect.StructField{Name: "CreatedAt", Type: reflect.TypeFor[string](), Tag: `json:"created_at"`},
		reflect.StructField{Name: "UpdatedAt", Type: reflect.TypeFor[string](), Tag: `json:"updated_at"`},
	))
}

// UnmarshalJSON decodes a website record tolerantly.
func (w *Website) UnmarshalJSON(data []byte) error {
	rawp := reflect.New(recordJSON)
	if err := json.Unmarshal(data, rawp.Interface()); err != nil {
		return err
	}
	raw := rawp.Elem()
	id, err := looseInt(raw.FieldByName("ID").Bytes())
	if err != nil {
		return fmt.Errorf("field id: %w", err)
	}
	if id == nil {
		return fmt.Errorf("field id: missing")
	}
	out := Website{ID: int64(*id), Domain: raw.FieldByName("Domain").String()}
	ov := reflect.ValueOf(&out).Elem()
	for i, c := range recordColumns {
		if err := decodeColumn(c, raw.Field(2+i), ov.FieldByIndex(recordField[c.Name])); err != nil {
			return err
		}
	}
	if out.Favorite, err = looseBool(raw.FieldByName("Favorite").Bytes()); err != nil {
		return fmt.Errorf("field favorite: %w", err)
	}
	if out.CreatedAt, err = parseTime(raw.FieldByName("CreatedAt").String()); err != nil {
		return fmt.Errorf("field created_at: %w", err)
	}
	if out.UpdatedAt, err = parseTime(raw.FieldByName("UpdatedAt").String()); err != nil {
		return fmt.Errorf("field updated_at: %w", err)
	}
	*w = out
	return nil
}

// decodeColumn sets dst, Website's field of c, from its raw value: an
// Integer loosely (looseInt), a Secret as whether one is set, Lines split
// on line breaks (nil for NULL), Text as it is ("" for NULL).
func decodeColumn(c wire.Column, raw, dst reflect.Value) error {
	switch c.Kind {
	case wire.Integer:
		v, err := looseInt(raw.Bytes())
		if err != nil {
			return fmt.Errorf("field %s: %w", c.Name, err)
		}
		dst.Set(reflect.ValueOf(v))
	case wire.Secret:
		set, err := looseBool(raw.Bytes())
		if err != nil {
			// Not the value: it could be the secret itself.
			return errors.New("field " + c.Name + ": expected a boolean")
		}
		dst.SetBool(set != nil && *set)
	case wire.Lines:
		if !raw.IsNil() {
			dst.Set(reflect.ValueOf(SplitLines(raw.Elem().String())))
		}
	case wire.Text:
		if !raw.IsNil() {
			dst.SetString(raw.Elem().String())
		}
	}
	return nil
}

// nullOf is what the application reads a NULL column as (wire.Column.Null).
func nullOf(name string) int {
	c, _ := wire.ByName(name)
	return c.Null
}

// clone returns a deep copy of w, so that callers never share the pointers
// or lists of a cached record.
func (w Website) clone() *Website {
	c := w
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Pointer:
			if !f.IsNil() {
				p := reflect.New(f.Type().Elem())
				p.Elem().Set(f.Elem())
				f.Set(p)
			}
		case reflect.Slice:
			if !f.IsNil() {
				f.Set(reflect.AppendSlice(reflect.MakeSlice(f.Type(), 0, f.Len()), f))
			}
		}
	}
	return &c
}

// settingsDiffer names the columns whose value in w differs from what the
// store of in left on the server: the value sent, or, for a field left out
// (a nil pointer), the column's default. A column the API never returns
// cannot be compared. A boolean sent is compared with the column's
// truthiness, a list as a set of lines, a secret by whether one is set.
func settingsDiffer(w *Website, in WebsiteInput) []string {
	var diffs []string
	wv, iv := reflect.ValueOf(w).Elem(), reflect.ValueOf(in)
	for _, c := range wire.Columns {
		if !c.Returned {
			continue
		}
		got, sent := wv.FieldByIndex(recordField[c.Name]), iv.FieldByIndex(inputField[c.Name])
		leftOut := sent.Kind() == reflect.Pointer && sent.IsNil()
		if sent.Kind() == reflect.Pointer && !leftOut {
			sent = sent.Elem()
		}
		var same bool
		switch c.Kind {
		case wire.Integer:
			stored, isBool := storedInt(c, sent, leftOut)
			switch {
			case got.IsNil() || stored == nil:
				same = got.IsNil() && stored == nil
			case isBool:
				same = (got.Elem().Int() != 0) == (*stored != 0)
			default:
				same = got.Elem().Int() == int64(*stored)
			}
		case wire.Secret:
			same = got.Bool() == (!leftOut && sent.String() != "")
		case wire.Lines:
			var lines []string
			if !leftOut {
				lines = stringsOf(sent)
			}
			same = sameLines(stringsOf(got), lines)
		case wire.Text:
			same = leftOut && got.String() == "" || !leftOut && got.String() == sent.String()
		}
		if !same {
			diffs = append(diffs, c.Name)
		}
	}
	return diffs
}

// storedInt is what a store leaves in an Integer column of which it sent
// sent (an int or a bool, 1 or 0), or its default when leftOut; and
// whether a bool was sent.
func storedInt(c wire.Column, sent reflect.Value, leftOut bool) (*int, bool) {
	if leftOut {
		if d, ok := c.Default.(int); ok {
			return &d, false
		}
		return nil, false
	}
	n := 0
	switch sent.Kind() {
	case reflect.Bool:
		if sent.Bool() {
			n = 1
		}
		return &n, true
	default:
		n = int(sent.Int())
		return &n, false
	}
}

// stringsOf is the []string v holds.
func stringsOf(v reflect.Value) []string {
	out := make([]string, v.Len())
	for i := range out {
		out[i] = v.Index(i).String()
	}
	return out
}
