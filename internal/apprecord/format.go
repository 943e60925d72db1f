// Package apprecord holds recorded answers of a real phpAnalytics
// installation to Website API calls: the file format, the normalisation that
// makes two servers' answers comparable, the request each call sends, and
// the seeded random sequences of calls that the recorder
// (internal/cmd/record-app-answers) sends to a real installation. The
// emulator's replay test sends the same calls to the emulator and compares.
package apprecord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// File is one recorded sequence: {"seed": N, "calls": [...]}.
type File struct {
	Seed  int64  `json:"seed"`
	Calls []Call `json:"calls"`
}

// Call is one request and the normalised answer to it.
type Call struct {
	Method string `json:"method"`
	// Path is below /api/v1; "#k" stands for the id of the k-th website the
	// sequence created (stores answered 201, from 0).
	Path string `json:"path"`
	// Form is sent as application/x-www-form-urlencoded, keys in order;
	// nil sends no body.
	Form Pairs `json:"form"`
	// Query is the query string, keys in order; nil sends none.
	Query  Pairs           `json:"query"`
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// Pair is one form or query field.
type Pair struct{ Key, Value string }

// Pairs is a JSON object of strings whose key order is kept (the order the
// fields are sent in). A nil Pairs is JSON null.
type Pairs []Pair

// UnmarshalJSON reads an object of strings, or null, in order.
func (p *Pairs) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*p = nil
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("apprecord: form or query is not an object")
	}
	out := Pairs{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("apprecord: field %v: %w", kt, err)
		}
		out = append(out, Pair{Key: kt.(string), Value: v}) //nolint:forcetypeassert // an object key is a string
	}
	*p = out
	return nil
}

// MarshalJSON writes an object in order, or null.
func (p Pairs) MarshalJSON() ([]byte, error) {
	if p == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range p {
		if i > 0 {
			b.WriteString(", ")
		}
		k, err := marshal(kv.Key)
		if err != nil {
			return nil, err
		}
		v, err := marshal(kv.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteString(": ")
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Load reads a recording.
func Load(path string) (*File, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, nil
}

// Encode writes f as a recording file, indented by one space per level.
func (f *File) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
