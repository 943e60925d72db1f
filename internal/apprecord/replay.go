package apprecord

import (
	"context"
	"fmt"
)

// Difference is the first call a server answered otherwise than recorded.
type Difference struct {
	Call       int  // its number in the file, from 0
	Request    Call // as recorded (path with "#k")
	WantStatus int
	Want       string // the recorded body, canonical
	GotStatus  int
	Got        string // the server's normalised body, canonical
}

func (d *Difference) Error() string {
	q, _ := d.Request.Query.MarshalJSON()
	f, _ := d.Request.Form.MarshalJSON()
	return fmt.Sprintf("call %d differs: %s %s query %s form %s\nrecorded: %d %s\nanswered: %d %s\n%s",
		d.Call, d.Request.Method, d.Request.Path, q, f, d.WantStatus, d.Want, d.GotStatus, d.Got,
		whereDiffer(d.Want, d.Got))
}

// whereDiffer shows where two bodies part, with some context.
func whereDiffer(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(i-80, 0)
	cut := func(s string) string { return s[from:min(i+80, len(s))] }
	return fmt.Sprintf("from byte %d:\nrecorded ...%s...\nanswered ...%s...", i, cut(a), cut(b))
}

// Replay sends every call of f in order to the recorder's server (whose
// account must start with no website, and which the sequence then
// changes) and compares each status and normalised body with the recorded
// one. It returns the first difference, or nil when every answer is equal.
func (r *Recorder) Replay(ctx context.Context, f *File) (*Difference, error) {
	n := NewNormaliser()
	for i, c := range f.Calls {
		want, err := Canonical(c.Body)
		if err != nil {
			return nil, fmt.Errorf("call %d: the recorded body: %w", i, err)
		}
		status, body, err := r.send(ctx, n, c)
		if err != nil {
			return nil, fmt.Errorf("call %d (%s %s): %w", i, c.Method, c.Path, err)
		}
		norm, err := n.Answer(c, status, body)
		if err != nil {
			return nil, fmt.Errorf("call %d (%s %s): answer %d: %w", i, c.Method, c.Path, status, err)
		}
		got, err := Canonical(norm)
		if err != nil {
			return nil, err
		}
		if status != c.Status || got != want {
			return &Difference{Call: i, Request: c, WantStatus: c.Status, Want: want, GotStatus: status, Got: got}, nil
		}
	}
	return nil, nil
}
