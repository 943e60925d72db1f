package wire

import (
	"reflect"
	"testing"
)

// The application validates the password right after privacy (its
// required_if reads privacy), every other column in the record's order.
func TestValidationOrder(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range ValidationOrder {
		got = append(got, c.Name)
	}
	want := []string{"privacy", "password", "email", "exclude_bots", "exclude_params", "exclude_ips"}
	if !reflect.DeepEqual(got[:len(want)], want) || len(got) != len(Columns) {
		t.Errorf("validation order %v, want %v then the columns added since", got, want)
	}
}

// Sample fills every column; Clone shares no pointer with the original.
func TestSampleAndClone(t *testing.T) {
	t.Parallel()
	s := Sample()
	for _, c := range Columns {
		if s.Get(c.Name).IsZero() {
			t.Errorf("Sample leaves %s NULL", c.Name)
		}
	}
	c := Clone(s)
	for _, col := range Columns {
		if f := c.Get(col.Name); f.Kind() == reflect.Pointer && f.Pointer() == s.Get(col.Name).Pointer() {
			t.Errorf("Clone shares %s", col.Name)
		}
	}
	if !reflect.DeepEqual(c, s) {
		t.Errorf("Clone %+v differs from %+v", c, s)
	}
}
